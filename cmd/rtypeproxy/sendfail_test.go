package main

import (
	"bytes"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"
)

// TestSendFailedLogged: a datagram that had its verdict but whose send the
// system refused is logged on a line of its own and counted as dropped,
// not as sent, in both formats.
func TestSendFailedLogged(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("UTC+1", 3600) // a time not written in UTC shows
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			var out, errs bytes.Buffer
			cfg, err := parseFlags([]string{"-listen", "127.0.0.1:0", "-server", "127.0.0.1:4242", "-log", format}, &out, &errs)
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			p, err := newProxy(cfg, &log)
			if err != nil {
				t.Fatal(err)
			}
			defer p.ln.Close()
			conn, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(p.server))
			if err != nil {
				t.Fatal(err)
			}
			conn.Close() // every send on it fails
			c := &client{addr: testAddr(1), conn: conn}
			p.forward(c, up, []byte("hello"), time.Now())
			st := c.stats[up].tally()
			if st.out != 0 || st.drops[dropSend] != 1 {
				t.Errorf("out %d, send failed %d; want 0 and 1", st.out, st.drops[dropSend])
			}
			checkTotals(t, "up", st)
			got := lines(log.String())
			if len(got) != 2 {
				t.Fatalf("%d lines, want the verdict and the failure:\n%s", len(got), log.String())
			}
			switch format {
			case "text":
				if want := "send failed 127.0.0.1:50001 > 127.0.0.1:4242 (5 bytes): "; !strings.HasPrefix(got[1], want) {
					t.Errorf("second line %q, want it to start with %q", got[1], want)
				}
			case "json":
				var o struct {
					Verdict, Error, Src, Dst, Time string
					Size                           int
				}
				if err := json.Unmarshal([]byte(got[1]), &o); err != nil || o.Verdict != "send failed" || o.Error == "" || o.Size != 5 {
					t.Errorf("second line %s: %+v, %v", got[1], o, err)
				}
				if at, err := time.Parse(time.RFC3339Nano, o.Time); err != nil || !strings.HasSuffix(o.Time, "Z") || at.IsZero() {
					t.Errorf("second line's time %q is not rtypedump's (RFC 3339 in UTC): %v", o.Time, err)
				}
			}
		})
	}
}
