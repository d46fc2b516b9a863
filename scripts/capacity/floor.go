package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype/internal/mmsg"
)

// floorArgs are what a floor run repeats of a host run: its sockets, and
// per second the datagrams it sends out, their size, and where to.
type floorArgs struct {
	matches  int
	out      float64
	size     int
	sink     string
	batch    int
	duration time.Duration
}

// runFloor is the floor process: only the system calls of a host with as
// many sockets, each drained once per tick and sent its share of the
// datagrams out, no protocol and no game. It prints its ports, then, at the
// end, the CPU time it used.
func runFloor(a floorArgs, stdout io.Writer) error {
	sink, err := net.ResolveUDPAddr("udp4", a.sink)
	if err != nil {
		return err
	}
	conns := make([]*mmsg.Conn, a.matches)
	ports := make([]string, a.matches)
	for i := range conns {
		c, err := mmsg.Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return fmt.Errorf("socket %d: %w", i, err)
		}
		defer c.Close()
		// As the host's sockets: the kernel stamps each arrival.
		if err := c.Timestamps(); err != nil {
			return err
		}
		conns[i] = c
		ports[i] = strconv.Itoa(int(c.LocalAddr().Port()))
	}
	fmt.Fprintln(stdout, "ports", strings.Join(ports, ","))
	in, out := mmsg.NewBatch(a.batch), mmsg.NewBatch(a.batch)
	for i := range out.Msgs {
		out.Msgs[i].N, out.Msgs[i].Addr = a.size, sink.AddrPort()
	}
	// owed is each socket's datagrams due and not sent yet, fractional.
	perTick := a.out / float64(a.matches) / 60
	owed := make([]float64, a.matches)
	t := time.NewTicker(time.Second / 60)
	defer t.Stop()
	user0, sys0, err := cpuTime()
	if err != nil {
		return err
	}
	for end := time.Now().Add(a.duration); time.Now().Before(end); {
		<-t.C
		for i, c := range conns {
			for {
				n, err := in.Read(c)
				if err != nil {
					return err
				}
				if n < len(in.Msgs) {
					break
				}
			}
			owed[i] += perTick
			for owed[i] >= 1 {
				n := min(int(owed[i]), len(out.Msgs))
				_, _ = out.Write(c, n)
				owed[i] -= float64(n)
			}
		}
	}
	user, sys, err := cpuTime()
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "cpu", (user - user0).Seconds(), (sys - sys0).Seconds())
	return nil
}

// floorPorts reads the floor's first line: its sockets' ports.
func floorPorts(r *bufio.Reader) ([]int, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("floor: %w", err)
	}
	f, ok := strings.CutPrefix(strings.TrimSpace(line), "ports ")
	if !ok {
		return nil, fmt.Errorf("floor: %q", line)
	}
	var ports []int
	for _, p := range strings.Split(f, ",") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, err
		}
		ports = append(ports, n)
	}
	return ports, nil
}

// readCPU reads the floor's last line: its user and kernel CPU seconds.
func readCPU(r *bufio.Reader) (cpuSecs, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return cpuSecs{}, fmt.Errorf("floor: %w", err)
	}
	f, ok := strings.CutPrefix(strings.TrimSpace(line), "cpu ")
	u, s, ok2 := strings.Cut(f, " ")
	if !ok || !ok2 {
		return cpuSecs{}, fmt.Errorf("floor: %q", line)
	}
	var c cpuSecs
	if c.user, err = strconv.ParseFloat(u, 64); err != nil {
		return cpuSecs{}, err
	}
	c.sys, err = strconv.ParseFloat(s, 64)
	return c, err
}

// feed sends rate datagrams a second of size bytes, spread over ports,
// until stop is closed: the floor's incoming load, from this process.
func feed(ports []int, rate float64, size int, stop <-chan struct{}) error {
	c, err := mmsg.Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	defer c.Close()
	b := mmsg.NewBatch(64)
	t := time.NewTicker(time.Second / 60)
	defer t.Stop()
	owed, next := 0.0, 0
	for {
		select {
		case <-stop:
			return nil
		case <-t.C:
		}
		for owed += rate / 60; owed >= 1; {
			n := min(int(owed), len(b.Msgs))
			for i := range n {
				b.Msgs[i].N = size
				b.Msgs[i].Addr = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(ports[next]))
				next = (next + 1) % len(ports)
			}
			_, _ = b.Write(c, n)
			owed -= float64(n)
		}
	}
}

// sinkConn is where the floor sends: drained on this process's core.
func sinkConn() (*net.UDPConn, func(), error) {
	u, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, nil, err
	}
	_ = u.SetReadBuffer(8 << 20)
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := u.ReadFromUDPAddrPort(buf); err != nil {
				return
			}
		}
	}()
	return u, func() { u.Close() }, nil
}
