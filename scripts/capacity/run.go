package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// warmUp is how long the bots get to join before the window opens.
const warmUp = 3 * time.Second

// result is one game's measure at one match count.
type result struct {
	// game is the server's -game: reference or example.
	game    string
	matches int
	// secs is the window's length.
	secs float64
	// loadAvg is the machine's load average over a minute when the run
	// began: how busy the machine was beside it.
	loadAvg float64
	// host is the server's CPU seconds in the window.
	host cpuSecs
	// in, out and their bytes are the server's datagrams in the window.
	in, out, bytesIn, bytesOut float64
	// stepSecs and steps are the game's tick time and count in the window
	// (rtype_game_tick_duration_seconds).
	stepSecs, steps float64
	load            loadReport
	// floor1 and floorB are the floor's CPU seconds, a call per datagram
	// and in batches.
	floor1, floorB cpuSecs
}

// cpuSecs is a process's CPU seconds, user and kernel.
type cpuSecs struct{ user, sys float64 }

func (c cpuSecs) total() float64 { return c.user + c.sys }

func (c cpuSecs) minus(d cpuSecs) cpuSecs { return cpuSecs{c.user - d.user, c.sys - d.sys} }

// loadReport is what the table takes of rtypeload -json.
type loadReport struct {
	OK       bool     `json:"ok"`
	Failures []string `json:"failures"`
	Overall  struct {
		Players            int `json:"players"`
		PlayersOK          int `json:"playersOk"`
		SnapshotIntervalMs struct {
			P99 *float64 `json:"p99"`
		} `json:"snapshotIntervalMs"`
		RTTMs struct {
			P99 *float64 `json:"p99"`
		} `json:"rttMs"`
	} `json:"overall"`
	CPU struct {
		FramesPercent float64 `json:"framesPercent"`
	} `json:"cpu"`
}

func run(games []string, ns []int, d time.Duration, nRuns int, markdown, update bool) (ok bool, err error) {
	if runtime.GOOS != "linux" {
		return false, fmt.Errorf("needs Linux (taskset, /proc)")
	}
	// This process feeds the floor and drains its sink: CPU 1, with rtypeload.
	if out, err := exec.Command("taskset", "-a", "-p", "-c", "1", strconv.Itoa(os.Getpid())).CombinedOutput(); err != nil {
		return false, fmt.Errorf("taskset: %v: %s", err, out)
	}
	dir, err := os.MkdirTemp("", "capacity")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	for _, pkg := range []string{"./examples/server", "./cmd/rtypeload"} {
		if out, err := exec.Command("go", "build", "-o", dir, pkg).CombinedOutput(); err != nil {
			return false, fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return false, err
	}
	var md bytes.Buffer
	out := io.Writer(os.Stdout)
	if update {
		out = io.MultiWriter(os.Stdout, &md)
	}
	t := newTable(out, markdown, d)
	ok = true
	// Run after run over every game and match count, so that each
	// one's runs are minutes apart, beside different neighbours.
	all := make([]runs, len(ns)*len(games))
	for range nRuns {
		for i, n := range ns {
			for j, g := range games {
				r, err := measureGame(dir, self, g, n, d)
				if err != nil {
					return false, fmt.Errorf("%s game, %d matches: %w", g, n, err)
				}
				k := i*len(games) + j
				all[k] = append(all[k], r)
				if !markdown {
					t.row(all[k])
				}
				// Bots that failed mean the matches were not held; a late
				// p99 or a generator that fell behind is the machine's, in
				// the table.
				switch {
				case r.load.Overall.PlayersOK < r.load.Overall.Players:
					ok = false
					fmt.Fprintf(os.Stderr, "capacity: %s game, %d matches not held: %s\n", g, n, strings.Join(r.load.Failures, "; "))
				case !r.load.OK:
					fmt.Fprintf(os.Stderr, "capacity: %s game, %d matches: %s (every bot played: in the table, not a failure)\n", g, n, strings.Join(r.load.Failures, "; "))
				}
			}
		}
	}
	if markdown {
		for _, rs := range all {
			t.row(rs)
		}
	}
	t.end()
	t.summary(all)
	if update {
		if err := writeTable("docs/performance.md", md.String()); err != nil {
			return false, err
		}
	}
	return ok, nil
}

// The markers around the table in the docs.
const (
	tableBegin = "<!-- capacity table: scripts/capacity.sh -update -->"
	tableEnd   = "<!-- end of capacity table -->"
)

// writeTable replaces what is between the markers of file with table.
func writeTable(file, table string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q", file, tableBegin, tableEnd)
	}
	s = s[:i+len(tableBegin)] + "\n" + table + s[j:]
	return os.WriteFile(file, []byte(s), 0o644)
}

var (
	listeningLine = regexp.MustCompile(`msg=listening addr=(\S+)`)
	metricsLine   = regexp.MustCompile(`msg=metrics url=(\S+)`)
)

// measureGame measures the server playing game for n matches, then the
// floor at its rates, one datagram per call and batched.
func measureGame(dir, self, game string, n int, d time.Duration) (result, error) {
	r, err := measure(dir, game, n, d)
	if err != nil {
		return r, err
	}
	if r.floor1, err = floor(self, r, d, 1); err != nil {
		return r, fmt.Errorf("floor: %w", err)
	}
	if r.floorB, err = floor(self, r, d, 64); err != nil {
		return r, fmt.Errorf("batched floor: %w", err)
	}
	return r, nil
}

// measure runs the server playing game on CPU 0 and rtypeload on CPU 1
// for n matches.
func measure(dir, game string, n int, d time.Duration) (result, error) {
	r := result{game: game, matches: n, secs: d.Seconds(), loadAvg: loadAvg()}
	srv := exec.Command("taskset", "-c", "0", filepath.Join(dir, "server"), "-game", game,
		"-addr", "127.0.0.1:0", "-matches", strconv.Itoa(n), "-metrics", "127.0.0.1:0", "-log", "info")
	stderr, err := srv.StderrPipe()
	if err != nil {
		return r, err
	}
	if err := srv.Start(); err != nil {
		return r, err
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	addr, url, err := serverAddrs(stderr)
	if err != nil {
		return r, err
	}
	var out bytes.Buffer
	load := exec.Command("taskset", "-c", "1", filepath.Join(dir, "rtypeload"), "-server", addr,
		"-matches", strconv.Itoa(n), "-duration", (warmUp + d + time.Second).String(), "-json")
	load.Stdout = &out
	if err := load.Start(); err != nil {
		return r, err
	}
	time.Sleep(warmUp)
	cpu0, m0, err := sample(srv.Process.Pid, url)
	if err != nil {
		return r, err
	}
	time.Sleep(d)
	cpu1, m1, err := sample(srv.Process.Pid, url)
	if err != nil {
		return r, err
	}
	_ = load.Wait() // exit 1 is a failed bot or a late Snapshot: in the table
	if err := json.Unmarshal(out.Bytes(), &r.load); err != nil {
		return r, fmt.Errorf("rtypeload -json: %w: %q", err, out.String())
	}
	r.host = cpu1.minus(cpu0)
	r.stepSecs = m1["rtype_game_tick_duration_seconds_sum"] - m0["rtype_game_tick_duration_seconds_sum"]
	r.steps = m1["rtype_game_tick_duration_seconds_count"] - m0["rtype_game_tick_duration_seconds_count"]
	r.in = m1[`rtype_datagrams_total{direction="in"}`] - m0[`rtype_datagrams_total{direction="in"}`]
	r.out = m1[`rtype_datagrams_total{direction="out"}`] - m0[`rtype_datagrams_total{direction="out"}`]
	r.bytesIn = m1[`rtype_bytes_total{direction="in"}`] - m0[`rtype_bytes_total{direction="in"}`]
	r.bytesOut = m1[`rtype_bytes_total{direction="out"}`] - m0[`rtype_bytes_total{direction="out"}`]
	return r, nil
}

// serverAddrs reads the server's log until its UDP and metrics addresses,
// then drains the rest.
func serverAddrs(stderr io.Reader) (addr, url string, err error) {
	sc := bufio.NewScanner(stderr)
	var log []string
	for (addr == "" || url == "") && sc.Scan() {
		log = append(log, sc.Text())
		if m := listeningLine.FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
		if m := metricsLine.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if addr == "" || url == "" {
		return "", "", fmt.Errorf("the server did not start:\n%s", strings.Join(log, "\n"))
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	return addr, url, nil
}

// sample reads a process's CPU seconds from /proc and the server's metrics.
func sample(pid int, url string) (cpuSecs, map[string]float64, error) {
	cpu, err := procCPU(pid)
	if err != nil {
		return cpuSecs{}, nil, err
	}
	m, err := scrape(url)
	return cpu, m, err
}

// procCPU is utime and stime of /proc/PID/stat, fields 14 and 15, in
// seconds.
func procCPU(pid int) (cpuSecs, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return cpuSecs{}, err
	}
	// The command name, field 2, may hold spaces: count from its ")".
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return cpuSecs{}, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return cpuSecs{utime / clockTicks, stime / clockTicks}, nil
}

// loadAvg is the machine's load average over the last minute, 0 if
// unknown.
func loadAvg() float64 {
	b, _ := os.ReadFile("/proc/loadavg")
	f, _, _ := strings.Cut(string(b), " ")
	v, _ := strconv.ParseFloat(f, 64)
	return v
}

// clockTicks is Linux's USER_HZ, the unit of /proc's times.
const clockTicks = 100

func scrape(url string) (map[string]float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	m := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), " ")
		if ok && strings.HasPrefix(name, "rtype_") {
			m[name], _ = strconv.ParseFloat(v, 64)
		}
	}
	return m, sc.Err()
}

// floor runs the floor process on CPU 0 for r's datagram rates and returns
// its CPU seconds; this process feeds it and drains what it sends.
func floor(self string, r result, d time.Duration, batch int) (cpuSecs, error) {
	secs := d.Seconds()
	if r.in == 0 || r.out == 0 {
		return cpuSecs{}, fmt.Errorf("no datagrams measured")
	}
	sink, stopSink, err := sinkConn()
	if err != nil {
		return cpuSecs{}, err
	}
	defer stopSink()
	cmd := exec.Command("taskset", "-c", "0", self, "-floor", "-duration", d.String(),
		"-floor-sockets", strconv.Itoa(r.matches), "-floor-out", fmt.Sprint(r.out/secs),
		"-floor-size", strconv.Itoa(int(r.bytesOut/r.out)), "-floor-sink", sink.LocalAddr().String(),
		"-floor-batch", strconv.Itoa(batch))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return cpuSecs{}, err
	}
	if err := cmd.Start(); err != nil {
		return cpuSecs{}, err
	}
	defer cmd.Wait()
	br := bufio.NewReader(stdout)
	ports, err := floorPorts(br)
	if err != nil {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		return cpuSecs{}, err
	}
	stop := make(chan struct{})
	fed := make(chan error, 1)
	go func() { fed <- feed(ports, r.in/secs, int(r.bytesIn/r.in), stop) }()
	cpu, err := readCPU(br)
	close(stop)
	if ferr := <-fed; err == nil {
		err = ferr
	}
	return cpu, err
}
