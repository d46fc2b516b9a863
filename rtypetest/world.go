package rtypetest

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/rtypeproto/rtype/session"
)

// WorldDiff compares the entities client c holds with those server s
// has (§8): the same network ids, each with the same archetype, at a
// position within tol pixels on each axis (a Snapshot's worth of movement,
// since the server may have moved them since the last one). It returns ""
// when they match, else one line per difference, sorted by id: an entity
// the client lacks, one it holds that the server does not (a ghost, §13.4),
// or one whose archetype or position differs.
func WorldDiff(s *session.Server, c *session.Client, tol float64) string {
	server := entities(s.Entities())
	client := entities(c.Entities())
	var lines []string
	for id, se := range server {
		ce, ok := client[id]
		switch {
		case !ok:
			lines = append(lines, fmt.Sprintf("- %d %v at (%.2f, %.2f): the client lacks it", id, se.Archetype, se.X, se.Y))
		case ce.Archetype != se.Archetype:
			lines = append(lines, fmt.Sprintf("~ %d: archetype %v, the server's is %v", id, ce.Archetype, se.Archetype))
		case math.Abs(ce.X-se.X) > tol || math.Abs(ce.Y-se.Y) > tol:
			lines = append(lines, fmt.Sprintf("~ %d %v: at (%.2f, %.2f), the server's at (%.2f, %.2f)", id, se.Archetype, ce.X, ce.Y, se.X, se.Y))
		}
	}
	for id, ce := range client {
		if _, ok := server[id]; !ok {
			lines = append(lines, fmt.Sprintf("+ %d %v at (%.2f, %.2f): the server has no such entity", id, ce.Archetype, ce.X, ce.Y))
		}
	}
	slices.SortFunc(lines, func(a, b string) int { return cmp.Compare(idOf(a), idOf(b)) })
	return strings.Join(lines, "\n")
}

func entities(all iter.Seq[session.Entity]) map[uint32]session.Entity {
	m := make(map[uint32]session.Entity)
	for e := range all {
		m[e.ID] = e
	}
	return m
}

// idOf reads the id after a diff line's mark.
func idOf(line string) uint32 {
	var id uint32
	fmt.Sscanf(line[2:], "%d", &id)
	return id
}
