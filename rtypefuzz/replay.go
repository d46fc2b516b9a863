package rtypefuzz

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/conformance"
)

// replayer sends a finding's datagrams again, in a new session, and tells
// whether the finding's oracle fires again.
type replayer struct {
	nw     conformance.Network
	target netip.AddrPort
	ended  <-chan error // the implementation's end, nil when unknown
	oracle Oracle
	conn   uint32 // the recorded session's id, replaced by the new one's
}

// Replay sends ds to the implementation at target in a new session and
// reports whether oracle fires: the check of a reproducer, and of each
// candidate while a finding is shrunk. ended, when not nil, tells the
// implementation's end.
func Replay(nw conformance.Network, target netip.AddrPort, ended <-chan error, oracle Oracle, conn uint32, ds []Datagram) (bool, error) {
	if nw == nil {
		nw = conformance.UDP
	}
	p := &replayer{nw: nw, target: target, ended: ended, oracle: oracle, conn: conn}
	return p.fires(ds)
}

func (p *replayer) fires(ds []Datagram) (bool, error) {
	bind := bindFor(p.target, p.nw)
	s, err := dial(p.nw, bind, p.target, Server)
	if err != nil {
		return false, err
	}
	defer s.leave()
	if p.oracle != Amplification {
		if err := s.open(LiveWait); err != nil {
			return false, fmt.Errorf("%w: %v", ErrUnreachable, err)
		}
	}
	for _, d := range ds {
		s.send(withConn(d.Bytes, p.conn, s.ctx.Conn))
		if fired, bad := p.watch(s, tick); fired {
			return true, nil
		} else if bad {
			break
		}
	}
	switch p.oracle {
	case StoppedAnswering, Exited:
		return p.dead(), nil
	}
	fired, _ := p.watch(s, LiveWait)
	return fired, nil
}

// watch reads s's answers for d and reports whether the oracle fired, and
// whether the implementation ended.
func (p *replayer) watch(s *sess, d time.Duration) (fired, ended bool) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return false, false
		case <-p.ended:
			p.ended = nil
			return p.oracle == Exited || p.oracle == StoppedAnswering, true
		case a, ok := <-s.in:
			if !ok {
				return false, false
			}
			switch p.oracle {
			case Amplification:
				return true, false
			case Oversize, Invalid:
				if o, _ := judge(a.Bytes, kindOf(s.welcomed)); o == p.oracle {
					return true, false
				}
			}
		}
	}
}

// dead reports whether the implementation stopped answering or ended.
func (p *replayer) dead() bool {
	pr := &prober{nw: p.nw, bind: bindFor(p.target, p.nw), target: p.target}
	alive, _ := pr.alive()
	if pr.health != nil {
		pr.health.leave()
	}
	if !alive {
		return true
	}
	select {
	case <-p.ended:
		return true
	default:
		return false
	}
}

// withConn returns b with its connectionId replaced by to when it is from
// (§5.1): a packet of the recorded session, sent in a new one.
func withConn(b []byte, from, to uint32) []byte {
	if from == 0 || len(b) < rtype.PacketHeaderSize || binary.BigEndian.Uint32(b) != from {
		return b
	}
	c := append([]byte(nil), b...)
	binary.BigEndian.PutUint32(c, to)
	return c
}

// shrink replays f's datagrams against fresh implementations from start,
// keeping the fewest that still fire its oracle.
func shrink(ctx context.Context, nw conformance.Network, start Start, f *Finding) {
	fires := func(ds []Datagram) bool {
		if ctx.Err() != nil {
			return false
		}
		addr, ended, stop, err := start(ctx)
		if err != nil {
			return false
		}
		defer stop()
		ok, err := Replay(nw, addr, ended, f.Oracle, f.Conn, ds)
		return err == nil && ok
	}
	if len(f.Sent) == 0 || !fires(f.Sent) {
		return
	}
	f.Sent, f.Shrunk = Shrink(f.Sent, fires), true
}

// exitDetail says how a process ended.
func exitDetail(err error) string {
	if err == nil || errors.Is(err, context.Canceled) {
		return "the implementation ended"
	}
	return "the implementation ended: " + err.Error()
}
