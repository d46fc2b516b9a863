package main

import (
	"errors"

	"github.com/rtypeproto/rtype/internal/mmsg"
	"syscall"
)

// readiness tells which of a loop's bots have datagrams queued, with one
// epoll_wait per frame rather than a read per bot: most frames bring a bot
// nothing (20 Snapshots a second against 60 frames, §10), and an empty
// read costs about as much as a full one. Level-triggered, so a datagram
// left queued shows again at the next frame.
type readiness struct {
	epfd   int
	events []syscall.EpollEvent
}

// newReadiness returns a readiness, or nil where epoll fails: every bot
// is then read every frame.
func newReadiness() *readiness {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	return &readiness{epfd: fd}
}

// add watches udp as the socket of bot i.
func (r *readiness) add(conn *mmsg.Conn, i int) error {
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
	var cerr error
	if err := conn.Control(func(fd uintptr) {
		cerr = syscall.EpollCtl(r.epfd, syscall.EPOLL_CTL_ADD, int(fd), &ev)
	}); err != nil {
		return err
	}
	r.events = append(r.events, syscall.EpollEvent{})
	return cerr
}

// poll sets ready[i] for each bot i with datagrams queued, without
// waiting; on error every bot is ready.
func (r *readiness) poll(ready []bool) {
	for {
		n, err := syscall.EpollWait(r.epfd, r.events, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			all(ready)
			return
		}
		for _, ev := range r.events[:n] {
			if i := int(ev.Fd); i >= 0 && i < len(ready) {
				ready[i] = true
			}
		}
		return
	}
}

func (r *readiness) close() { syscall.Close(r.epfd) }

// setReadBuffer asks for a receive buffer of n bytes; the kernel caps it.
func setReadBuffer(fd uintptr, n int) {
	_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, n)
}
