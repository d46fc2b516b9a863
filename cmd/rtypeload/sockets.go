package main

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// errFileLimit: the process may not open a socket per bot.
var errFileLimit = errors.New("too many open files")

// openSocket opens a bot's UDP socket of network ("udp4" or "udp6") with
// kernel arrival stamps; i and total say which it is, for the error.
func openSocket(network string, i, total int) (*mmsg.Conn, error) {
	conn, err := mmsg.Listen(network, nil)
	if err != nil {
		if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
			return nil, fileLimitError(i, total, err)
		}
		return nil, fmt.Errorf("socket %d of %d: %w", i+1, total, err)
	}
	if err := conn.Timestamps(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("socket %d of %d: %w", i+1, total, err)
	}
	return conn, nil
}

// fileLimitError names RLIMIT_NOFILE, which Go raised to its hard limit at
// start: only a higher hard limit helps.
func fileLimitError(i, total int, err error) error {
	soft, hard, ok := fileLimit()
	if !ok {
		return fmt.Errorf("opening socket %d of %d, one per bot: %w (%v)", i+1, total, errFileLimit, err)
	}
	return fmt.Errorf("opening socket %d of %d, one per bot: %w; RLIMIT_NOFILE is %d (hard limit %d): raise it above %d (ulimit -n, or LimitNOFILE= of a systemd unit)",
		i+1, total, errFileLimit, soft, hard, total+64)
}
