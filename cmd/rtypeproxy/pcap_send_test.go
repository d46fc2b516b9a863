package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// TestPcapSendBounded: with -pcap, sends are made under the file's lock,
// so each socket's sends get a deadline of pcapSendTimeout: a socket that
// cannot send fails its datagram instead of stalling every other. The
// deadline is seen in force on both sockets: once it passed, a write on
// them fails with it.
func TestPcapSendBounded(t *testing.T) {
	srv := newMuteServer(t, "")
	var out, errs bytes.Buffer
	cfg, err := parseFlags([]string{"-listen", "127.0.0.1:0", "-server", srv.addr(), "-log", "none",
		"-pcap", filepath.Join(t.TempDir(), "p.pcap")}, &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newProxy(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer p.ln.Close()
	defer p.pcap.close()
	conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(p.server))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	peer := dialProxy(t, p)
	c := &client{addr: unmap(peer.LocalAddr().(*net.UDPAddr).AddrPort()), conn: conn}
	for _, d := range []struct {
		dir   direction
		write func() error
	}{
		{up, func() error { _, err := conn.Write([]byte("x")); return err }},
		{down, func() error { _, err := p.ln.WriteToUDPAddrPort([]byte("x"), c.addr); return err }},
	} {
		if err := p.write(c, d.dir, []byte("x")); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		exampletest.WaitFor(t, d.dir.String()+": the send deadline passing", func() bool { return errors.Is(d.write(), os.ErrDeadlineExceeded) })
		if waited := time.Since(start); waited > pcapSendTimeout+time.Second {
			t.Errorf("%s: the deadline took %v, more than %v", d.dir, waited, pcapSendTimeout)
		}
	}
}
