//go:build !js

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rtypeproto/rtype/internal/udpaddr"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are the command's flags.
type options struct {
	addr, servers, origins string
	cert, key, wasm        string
	metrics, level         string
	chromium               bool
	limits
}

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "`HOST:PORT` of the page (TCP) and of WebTransport (UDP); port 0 picks one")
	fs.StringVar(&o.servers, "server", "127.0.0.1:4242", "the R-Type server's UDP `ADDR`, or several, comma-separated, chosen by the page's ?server=N")
	fs.StringVar(&o.origins, "origin", "", "further page `ORIGINS` allowed to open sessions, comma-separated (https://game.example)")
	fs.StringVar(&o.cert, "cert", "", "TLS certificate `FILE` (PEM) browsers trust; default: a self-signed one, given to the page by its hash")
	fs.StringVar(&o.key, "key", "", "the -cert's private key `FILE` (PEM)")
	fs.StringVar(&o.wasm, "wasm", "", "the page's WebAssembly `FILE`, built for GOOS=js GOARCH=wasm from "+clientPkg+"; default: built at start")
	fs.StringVar(&o.metrics, "metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics")
	fs.StringVar(&o.level, "log", "info", "log `LEVEL`: debug, info, warn or error")
	fs.BoolVar(&o.chromium, "chromium", false, "also open the page in a headless Chromium, closed on interrupt after its client's Disconnect")
	fs.IntVar(&o.sessions, "max-sessions", 256, "sessions open at once")
	fs.IntVar(&o.rate, "rate", 250, "datagrams a second each browser may send")
	fs.DurationVar(&o.idle, "idle", 10*time.Second, "silence from a browser that closes its session (§13.3)")
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rtypeweb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.level)); err != nil {
		fmt.Fprintln(stderr, "rtypeweb: -log: want debug, info, warn or error")
		return 2
	}
	if fs.NArg() > 0 || o.sessions < 1 || o.rate < 1 || o.idle <= 0 || (o.cert == "") != (o.key == "") {
		fmt.Fprintln(stderr, "rtypeweb: need -max-sessions, -rate, -idle > 0, -cert with -key, no args")
		return 2
	}
	servers, err := parseServers(o.servers)
	if err != nil {
		fmt.Fprintln(stderr, "rtypeweb: -server:", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := serve(ctx, &o, servers, log, stdout); err != nil {
		fmt.Fprintln(stderr, "rtypeweb:", err)
		return 1
	}
	return 0
}

// parseServers resolves the -server list.
func parseServers(s string) ([]netip.AddrPort, error) {
	var out []netip.AddrPort
	for _, a := range strings.Split(s, ",") {
		ap, err := udpaddr.Resolve(strings.TrimSpace(a))
		if err != nil {
			return nil, err
		}
		out = append(out, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()))
	}
	return out, nil
}

// serve runs the gateway until ctx ends.
func serve(ctx context.Context, o *options, servers []netip.AddrPort, log *slog.Logger, stdout io.Writer) error {
	wasm, glue, err := o.client(ctx)
	if err != nil {
		return err
	}
	in, err := open(o, servers, log, wasm, glue)
	if err != nil {
		return err
	}
	to := fmt.Sprint(servers)
	if len(servers) > 2 {
		to = fmt.Sprintf("%d servers, %v first", len(servers), servers[0])
	}
	fmt.Fprintf(stdout, "rtypeweb: play at %s (relaying to %s)\n", in.url, to)
	if o.chromium {
		if in.browser, err = startChromium(in.url); err != nil {
			in.close()
			return err
		}
	}
	return in.wait(ctx)
}

// instance is a gateway running: its page and its sessions.
type instance struct {
	g       *gateway
	page    *page
	url     string
	wtURL   string // the WebTransport endpoint
	hash    []byte // of the self-signed certificate, nil with -cert
	udp     *net.UDPConn
	http    *http.Server
	metrics *http.Server
	browser *chromium
	errc    chan error
}

// open starts the gateway's listeners and servers.
func open(o *options, servers []netip.AddrPort, log *slog.Logger, wasm, glue []byte) (*instance, error) {
	udp, tcp, err := listenPair(o.addr)
	if err != nil {
		return nil, err
	}
	l, err := o.listener(udp, tcp)
	if err != nil {
		udp.Close()
		tcp.Close()
		return nil, err
	}
	in := &instance{udp: udp, url: l.pageURL(), wtURL: l.sessionURL(), hash: l.hash, errc: make(chan error, 2)}
	in.g = newGateway(router{servers: servers, origins: l.origins(o.origins)}, o.limits, log)
	if in.page, err = newPage(pageConfig{URL: l.sessionURL(), CertHash: l.hash, Servers: len(servers)}, wasm, glue); err != nil {
		udp.Close()
		tcp.Close()
		return nil, err
	}
	// A page connection silent, or not reading, for -idle is dropped.
	in.page.stall = o.idle
	in.http = &http.Server{Handler: in.page, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: o.idle}
	in.g.newWT(l.tls)
	go func() { in.errc <- in.g.serveWT(udp) }()
	go in.g.logDrops(dropLogEvery)
	go func() { in.errc <- l.servePage(in.http, tcp) }()
	if o.metrics != "" {
		if in.metrics, err = serveMetrics(o.metrics, &in.g.total, log); err != nil {
			in.close()
			return nil, err
		}
	}
	log.Info("listening", "url", in.url, "servers", fmt.Sprint(servers),
		"wasm", len(in.page.wasm.plain), "wasm_gzip", len(in.page.wasm.gz))
	return in, nil
}

// wait runs until ctx ends or a server fails, then closes.
func (in *instance) wait(ctx context.Context) error {
	var err error
	select {
	case <-ctx.Done():
	case err = <-in.errc:
	}
	in.close()
	return err
}

// close asks every page to quit, so each client sends its Disconnect
// (§7.3), and stops.
func (in *instance) close() {
	in.g.shutdown(2 * time.Second)
	if in.browser != nil {
		in.browser.stop()
	}
	in.http.Close()
	if in.metrics != nil {
		in.metrics.Close()
	}
	in.udp.Close()
}

// client returns the page's WebAssembly and its glue.
func (o *options) client(ctx context.Context) (wasm, glue []byte, err error) {
	if o.wasm == "" {
		return buildClient(ctx)
	}
	if wasm, err = os.ReadFile(o.wasm); err != nil {
		return nil, nil, err
	}
	glue, err = wasmExec(ctx)
	return wasm, glue, err
}

// listenPair opens the UDP socket of WebTransport and the TCP listener of
// the page on the same port, so that the page's origin is the session's.
func listenPair(addr string) (*net.UDPConn, net.Listener, error) {
	var last error
	for range 20 {
		u, err := net.ListenPacket("udp", addr)
		if err != nil {
			return nil, nil, err
		}
		uc := u.(*net.UDPConn)
		port := uc.LocalAddr().(*net.UDPAddr).Port
		host, _, _ := net.SplitHostPort(addr)
		t, err := net.Listen("tcp", net.JoinHostPort(host, fmt.Sprint(port)))
		if err == nil {
			return uc, t, nil
		}
		uc.Close()
		last = err
		if !strings.HasSuffix(addr, ":0") {
			break
		}
	}
	return nil, nil, errors.Join(errors.New("no port free for both TCP and UDP"), last)
}
