//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rtypeproto/rtype/internal/exampletest"
)

// cpuTime returns the CPU a process used, user and system, from
// /proc/PID/stat (clock ticks of 10 ms).
func cpuTime(b *testing.B, pid int) time.Duration {
	b.Helper()
	s, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(s[strings.LastIndexByte(string(s), ')')+2:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

var playAt = regexp.MustCompile(`play at http://(\S+)/ `)

// childGateway starts the built command in a process of its own,
// relaying to servers, and returns its WebTransport URL and its process.
func childGateway(b *testing.B, servers string, args ...string) (string, *os.Process) {
	b.Helper()
	bin := exampletest.Build(b, "./cmd/rtypeweb")
	wasm := filepath.Join(b.TempDir(), "client.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm"), 0o644); err != nil {
		b.Fatal(err)
	}
	args = append([]string{"-server", servers, "-addr", "127.0.0.1:0", "-wasm", wasm, "-log", "warn"}, args...)
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() || !playAt.MatchString(sc.Text()) {
		b.Fatalf("no URL printed: %q", sc.Text())
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return "https://" + playAt.FindStringSubmatch(sc.Text())[1] + sessionPath, cmd.Process
}

// The gateway's CPU per datagram relayed, either way: the built command
// in a process of its own relays a Go WebTransport client's datagrams,
// 64 bytes, 16 in flight, to a UDP echo server and back. Its CPU time is
// read from /proc before and after.
func BenchmarkGatewayCPU(b *testing.B) {
	echo := echoServer(b)
	url, proc := childGateway(b, echo.String(), "-rate", "1000000000")
	_, sess, err := dialURL(b, url, nil, "")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	msg := make([]byte, 64)
	const inFlight = 16
	for range inFlight {
		sess.SendDatagram(msg)
	}
	lost := 0
	echoOne := func() {
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := sess.ReceiveDatagram(ctx); err != nil {
			lost++ // a datagram lost: send another
		}
		sess.SendDatagram(msg)
	}
	for range 1000 { // warm up
		echoOne()
	}
	before := cpuTime(b, proc.Pid)
	for b.Loop() {
		echoOne()
	}
	used := cpuTime(b, proc.Pid) - before
	b.ReportMetric(float64(used.Nanoseconds())/1e3/float64(2*b.N), "gateway-cpu-µs/datagram")
	b.ReportMetric(float64(lost), "lost")
}

// sessionsN is BenchmarkSessions100's number of clients.
var sessionsN = 100

// BenchmarkSessions100 plays 100 clients against the example server, 25
// matches of 4, for 10 s directly over UDP and then for 10 s through one
// gateway, and reports the p50 and p99 of the interval between two
// Snapshot rounds each client received: the gateway should leave them as
// the server sends them (every 50 ms, §10), and the gateway's CPU then,
// in % of a core, in a process of its own. Run it alone, -benchtime 1x.
func BenchmarkSessions100(b *testing.B) {
	n, matches, play := sessionsN, sessionsN/4, 10*time.Second
	srv := exampletest.StartServer(b, exampletest.Build(b, "./examples/server"), "-matches", fmt.Sprint(matches))
	first := netip.MustParseAddrPort(srv.Addr)
	servers := make([]netip.AddrPort, matches)
	for i := range servers {
		servers[i] = netip.AddrPortFrom(first.Addr(), first.Port()+uint16(i))
	}
	list := make([]string, matches)
	for i, a := range servers {
		list[i] = a.String()
	}
	url, proc := childGateway(b, strings.Join(list, ","), "-max-sessions", fmt.Sprint(n))
	for b.Loop() {
		direct := runN(b, n, play, func(i int) *wireClient {
			c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(servers[i/4]))
			if err != nil {
				b.Fatal(err)
			}
			w := newWireClient(servers[i/4], func(p []byte) { c.Write(p) })
			go func() {
				defer c.Close()
				for {
					buf := make([]byte, 2048)
					k, err := c.Read(buf)
					if err != nil {
						return
					}
					w.push(buf[:k])
				}
			}()
			b.Cleanup(func() { c.Close() })
			return w
		})
		before, start := cpuTime(b, proc.Pid), time.Now()
		via := runN(b, n, play, func(i int) *wireClient {
			_, sess, err := dialURL(b, url+fmt.Sprintf("?server=%d", i/4), nil, "")
			if err != nil {
				b.Fatal(err)
			}
			w := newWireClient(servers[i/4], func(p []byte) { sess.SendDatagram(p) })
			go func() {
				for {
					p, err := sess.ReceiveDatagram(context.Background())
					if err != nil {
						return
					}
					w.push(p)
				}
			}()
			return w
		})
		b.ReportMetric(µs(percentile(direct, 50))/1e3, "direct-p50-ms")
		b.ReportMetric(µs(percentile(direct, 99))/1e3, "direct-p99-ms")
		b.ReportMetric(µs(percentile(via, 50))/1e3, "via-p50-ms")
		b.ReportMetric(µs(percentile(via, 99))/1e3, "via-p99-ms")
		cpu := cpuTime(b, proc.Pid) - before
		b.ReportMetric(100*cpu.Seconds()/time.Since(start).Seconds(), "gateway-cpu-%")
	}
}

func init() {
	if v := os.Getenv("RTYPEWEB_SESSIONS"); v != "" {
		fmt.Sscan(v, &sessionsN)
	}
}
