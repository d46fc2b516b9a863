package rtypefuzz

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ErrRSS: the resident memory of a process could not be read (on Linux
// it is /proc/PID/status's VmRSS; other systems have no reader here).
var ErrRSS = errors.New("rtypefuzz: cannot read the process's memory")

// DefaultMaxRSS bounds the resident memory of an implementation whose
// memory is watched: the fuzzer's connections are bounded, so a server
// that grows past it keeps something per datagram (§12).
const DefaultMaxRSS = 1 << 30

// RSS returns the resident memory of process pid, in bytes.
func RSS(pid int) (uint64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrRSS, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: VmRSS %q", ErrRSS, v)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("%w: no VmRSS for process %d", ErrRSS, pid)
}

// memoryFinding returns the finding of an implementation whose memory
// grew past the bound, nil while it is within it or cannot be read.
func (r *serverRole) memoryFinding() *Finding {
	if r.e.o.RSS == nil {
		return nil
	}
	rss, err := r.e.o.RSS()
	if err != nil || rss <= r.e.o.MaxRSS {
		return nil
	}
	return r.found(MemoryGrew, fmt.Sprintf("resident memory %d MiB, over the bound of %d MiB, while its connections with the fuzzer are a few (§12: bound every count)",
		rss>>20, r.e.o.MaxRSS>>20))
}
