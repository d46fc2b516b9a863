package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rtypeproto/rtype/internal/termwidth"
	"github.com/rtypeproto/rtype/internal/wiredump"
	"github.com/rtypeproto/rtype/qlog"
)

// Exit statuses, as the package documentation lists them.
const (
	exitOK    = 0
	exitInput = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the command-line flags.
type options struct {
	hex, json, stats bool
	qlog             string // -qlog's directory
	report           string // -report's file
	watch            bool   // -watch
	client           string // -client: the address -watch shows first
	kind             wiredump.Kind
	port             uint16 // -port, 0 for auto: the capture shows it
	name             string // input file, "" or "-" for standard input
}

// errFlags is a command line the flag package refused; it printed why.
var errFlags = errors.New("bad flags")

// parseFlags reads the command line. -h prints the usage on stdout and
// returns flag.ErrHelp; a flag the flag package refuses gets its message
// and the usage on stderr, and errFlags.
func parseFlags(args []string, stdout, stderr io.Writer) (options, error) {
	var o options
	var err error
	fs := flag.NewFlagSet("rtypedump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // printed below, on the stream the case calls for
	usage := func(w io.Writer) {
		fs.SetOutput(w)
		fmt.Fprintln(w, "usage: rtypedump [-json] [-stats] [-qlog DIR] [-port N] capture.pcap|capture.pcapng|-")
		fmt.Fprintln(w, "       rtypedump -hex [-kind packet|handshake] [-json] [-stats] [file.hex]")
		fmt.Fprintln(w, "       rtypedump -report FILE.html [-port N] capture|trace.sqlog|DIR")
		fmt.Fprintln(w, "       rtypedump -watch [-client ADDR] [-port N] capture")
		fs.PrintDefaults()
	}
	fs.BoolVar(&o.hex, "hex", false, "read datagrams as hex, one per line ('#' starts a comment)")
	kindName := fs.String("kind", "packet", "with -hex, the parser for every line: packet or handshake")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per datagram")
	fs.BoolVar(&o.stats, "stats", false, "print per-connection totals instead of the datagrams")
	fs.StringVar(&o.qlog, "qlog", "", "write a qlog trace per client address into `DIR` instead of printing the datagrams")
	fs.BoolVar(&o.watch, "watch", false, "replay the capture's game in the terminal, as a client saw it (space, ←/→, +/-, n/p, q)")
	fs.StringVar(&o.client, "client", "", "with -watch, the client `ADDR` to show first")
	fs.StringVar(&o.report, "report", "", "write an HTML report of each client into `FILE` instead of printing the datagrams; the input may be .sqlog traces (a file or a directory)")
	port := fs.String("port", "auto", "UDP `port` of the server in a capture; auto finds it: the address\nanswering Hellos with Welcomes, else the port most connected packets\ngo to")
	if err = fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return o, err
		}
		usage(stderr)
		return o, errFlags
	}
	kindSet := false
	fs.Visit(func(f *flag.Flag) { kindSet = kindSet || f.Name == "kind" })
	if o.report != "" && o.hex {
		return o, errors.New("-report applies to captures and traces only: hex datagrams have no addresses nor times")
	}
	if o.qlog != "" && o.hex {
		return o, errors.New("-qlog applies to captures only: hex datagrams have no addresses nor times")
	}
	if kindSet && !o.hex {
		// A capture's datagrams take their kind from §3, not from a flag.
		return o, errors.New("-kind applies to -hex input only: a capture's datagrams are told apart by address (§3)")
	}
	switch *kindName {
	case "packet":
		o.kind = wiredump.Packet
	case "handshake":
		o.kind = wiredump.Handshake
	default:
		return o, fmt.Errorf("-kind must be packet or handshake, not %q", *kindName)
	}
	if o.port, err = parsePort(*port); err != nil {
		return o, err
	}
	switch fs.NArg() {
	case 0:
		if !o.hex {
			return o, errors.New("a capture file is required (\"-\" for standard input)")
		}
	case 1:
		o.name = fs.Arg(0)
	default:
		return o, errors.New("at most one input file")
	}
	if o.watch && (o.hex || o.name == "" || o.name == "-") {
		return o, errors.New("-watch replays a capture file: not hex input, not stdin, which it must read again to seek")
	}
	if o.client != "" && !o.watch {
		return o, errors.New("-client applies to -watch only")
	}
	return o, nil
}

// parsePort reads -port: auto, 0 here, or 1 to 65535.
func parsePort(s string) (uint16, error) {
	if s == "auto" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("-port must be auto or 1 to 65535, not %q", s)
	}
	return uint16(n), nil
}

// run is the whole command, with its streams, so that tests can drive it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errFlags):
		return exitUsage
	case err != nil:
		fmt.Fprintln(stderr, "rtypedump:", err)
		return exitUsage
	}
	if o.report != "" {
		return runReport(o, stdin, stderr)
	}
	if o.watch {
		return runWatch(o, stderr)
	}
	in, label := stdin, "stdin"
	if o.name != "" && o.name != "-" {
		f, err := os.Open(o.name)
		if err != nil {
			fmt.Fprintln(stderr, "rtypedump:", err)
			return exitInput
		}
		defer f.Close()
		in, label = f, o.name
	}
	d := newDumper(o, stdout)
	if o.qlog != "" {
		if d.qlog, err = qlog.NewDir(o.qlog, qlog.Network); err != nil {
			fmt.Fprintln(stderr, "rtypedump: -qlog:", err)
			return exitUsage
		}
	}
	report := func(err error) {
		var pe *posError
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "rtypedump: %s: %v\n", label, err)
		} else {
			fmt.Fprintln(stderr, "rtypedump:", err)
		}
	}
	badLines := 0
	if o.hex {
		err = d.hexInput(in, func(err error) { badLines++; report(err) })
	} else {
		err = d.captureInput(in)
	}
	if d.qlog != nil {
		if qerr := d.qlog.Close(); err == nil && qerr != nil {
			err = fmt.Errorf("-qlog: %w", qerr)
		}
	}
	// Totals or traces of no client are an error, not an empty success.
	empty := !o.hex && d.noClient(stderr, label, err) && (o.stats || d.qlog != nil)
	if h := d.kinds.hint(); h != "" {
		writeNote(stderr, h)
	}
	// The totals cover everything read, also when the input broke off.
	if o.stats && !empty {
		if serr := d.writeStats(); err == nil {
			err = serr
		}
	}
	if err != nil {
		report(err)
		var nc *notCaptureError
		if errors.As(err, &nc) && nc.hint != "" {
			writeNote(stderr, fmt.Sprintf("%s reads as hex datagrams, one per line: try %s", label, nc.hint))
		}
		return exitInput
	}
	if badLines > 0 || empty {
		return exitInput
	}
	return exitOK
}

// dumper prints datagrams and collects totals.
type dumper struct {
	o    options
	w    io.Writer
	line []byte // -json's line being written
	text *wiredump.Text
	// stats collects the totals of -stats, nil without it.
	stats *stats
	// find watches a capture for its server and its clients.
	find serverFinder
	// finding says frame feeds find; not on a second pass.
	finding bool
	// port is the server's, -port or found; sides follows its clients
	// (§3), nil while the server is unknown.
	port  uint16
	by    evidence
	need  evidence // the least evidence of a server decoded
	sides *wiredump.Sides
	// holdback holds a stream's datagrams while its server is unknown.
	holdback
	// kinds counts hex datagrams read as packets that look like
	// handshakes, for a hint at -kind handshake.
	kinds kindTally
	// qlog writes -qlog's traces, nil without it.
	qlog *qlog.Dir
	// report collects -report's series, nil without it.
	report *reportModel
}

func newDumper(o options, w io.Writer) *dumper {
	d := &dumper{o: o, w: w, text: wiredump.NewText(w)}
	d.holdLimit = maxHoldBack
	d.need = byHellos
	if o.stats || o.qlog != "" || o.report != "" {
		// Totals, traces and reports are of clients: Hellos never
		// answered make none.
		d.need = byPackets
	}
	if o.stats {
		other := "other addresses"
		if o.hex {
			other = "other connections"
		}
		d.stats = newStats(other)
	}
	return d
}

// datagram prints datagram number n, seen at at (nil for hex input);
// -stats prints the totals instead.
func (d *dumper) datagram(n int, at *wiredump.Origin, dec *wiredump.Decoded) error {
	if d.o.stats || d.qlog != nil || d.report != nil {
		return nil
	}
	if d.o.json {
		return d.writeJSON(dec.Object(n, at))
	}
	return d.text.Decoded(n, at, dec)
}

// writeJSON writes o as one line, in a buffer the dumper reuses.
func (d *dumper) writeJSON(o wiredump.Object) error {
	b, err := appendJSON(d.line[:0], o)
	if err != nil {
		return err
	}
	d.line = append(b, '\n')
	_, err = d.w.Write(d.line)
	return err
}

// hexInput decodes hex lines with the parser -kind names.
func (d *dumper) hexInput(in io.Reader, bad func(error)) error {
	r := newHexReader(in)
	for n := 1; ; n++ {
		data, _, err := r.next()
		if err == io.EOF {
			return nil
		}
		var line *badLineError
		if errors.As(err, &line) {
			// One bad line spoils only itself: report it, read on.
			bad(err)
			n--
			continue
		}
		if err != nil {
			return err
		}
		dec := wiredump.Decode(d.o.kind, data)
		if d.o.kind == wiredump.Packet {
			d.kinds.add(data, dec.Err == nil)
		}
		if d.stats != nil {
			key := "handshake datagrams"
			if dec.Kind == wiredump.Packet {
				key = "packets without a header"
				if dec.HasHeader {
					key = fmt.Sprintf("connectionId %d", dec.Header.ConnectionID)
				}
			}
			d.stats.add(d.stats.conn(key), 0, false, &dec)
		}
		if err := d.datagram(n, nil, &dec); err != nil {
			return err
		}
	}
}

// captureInput decodes the datagrams of a capture to or from the server's
// port, telling their kind by the rule of §3. Without -port, the server is
// found first (server.go): in a first pass over an input that seeks, else
// in the datagrams of a stream held back until it shows (holdback.go).
func (d *dumper) captureInput(in io.Reader) error {
	if d.o.port == 0 {
		if rs, ok := seekable(in); ok {
			return d.twoPasses(rs)
		}
		d.finding = true
		return d.frames(in)
	}
	d.finding = true
	d.serve(d.o.port, noEvidence)
	return d.frames(in)
}

// serve decodes the datagrams to and from port from now on; by is how
// the capture showed it, noEvidence for -port.
func (d *dumper) serve(port uint16, by evidence) {
	d.port, d.by, d.sides = port, by, wiredump.NewSides(port)
}

// frames reads the capture in, each frame in turn.
func (d *dumper) frames(in io.Reader) error {
	c, err := openCapture(in)
	if err != nil {
		return err
	}
	for {
		f, err := c.next()
		if err != nil {
			if rerr := d.release(); rerr != nil {
				return rerr
			}
			if err == io.EOF {
				err = nil
			}
			return err
		}
		if err := d.frame(f); err != nil {
			return err
		}
	}
}

// frame decodes the UDP datagram of f, or holds it back while the server
// of a stream is unknown.
func (d *dumper) frame(f frame) error {
	u, ok := udpOf(f)
	if !ok {
		return nil
	}
	if d.finding {
		d.find.add(&u)
	}
	h := heldDatagram{n: f.n, at: f.info.Timestamp, u: u}
	if d.sides == nil {
		return d.hold(&h)
	}
	return d.decode(&h)
}

// decode decodes the datagram h holds, if to or from the server.
func (d *dumper) decode(h *heldDatagram) error {
	u := &h.u
	k, client, toServer, ok := d.sides.Classify(u.src, u.dst)
	if !ok {
		return nil
	}
	var dec wiredump.Decoded
	if u.problem != nil {
		dec = wiredump.Decoded{Kind: k, Data: u.payload, Err: u.problem}
	} else {
		dec = d.sides.Decode(client, toServer, u.payload)
	}
	dir := 1
	if toServer {
		dir = 0
	}
	if d.stats != nil {
		d.stats.add(d.stats.conn(client.String()), dir, true, &dec)
	}
	if d.report != nil {
		sn := seenOf(h.at, client.String(), toServer, &dec)
		d.report.add(&sn)
	}
	if d.qlog != nil {
		key := ""
		if dec.Err != nil {
			key = wiredump.DropKey(dec.Err)
		}
		d.qlog.Datagram(h.at, client, toServer, u.payload, key)
	}
	at := &wiredump.Origin{Time: h.at, Src: u.src, Dst: u.dst}
	return d.datagram(h.n, at, &dec)
}

func (d *dumper) writeStats() error {
	list := d.stats.objects(!d.o.hex)
	if !d.o.json {
		return writeStatsText(d.w, list, termwidth.Layout(termwidth.Width(d.w)))
	}
	for _, o := range list {
		if err := d.writeJSON(o); err != nil {
			return err
		}
	}
	return nil
}
