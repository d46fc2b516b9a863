package playfield

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/session"
)

var update = flag.Bool("update", false, "rewrite the golden frames in testdata")

// golden compares got with testdata/name.txt, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(strings.TrimSuffix(string(want), "\n"), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// ansiEscape matches a CSI escape sequence.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[@-~]")

// strip removes the escapes of AppendANSI's output and reads "\r\n" as
// "\n".
func strip(b []byte) string {
	return strings.ReplaceAll(ansiEscape.ReplaceAllString(string(b), ""), "\r\n", "\n")
}

func ent(id uint32, a rtype.Archetype, x, y float64) session.Entity {
	return session.Entity{ID: id, Archetype: a, X: x, Y: y}
}

// fullWorld is a busy moment of the example game: the four ships at their
// spawn positions (§10) and one moved, missiles, Bydos on screen and one
// just spawned off it (x = 2000), stage tiles on the ceiling (y = 0, drawn
// flipped, §9.3) and on the ground, an entity of unknown archetype, and
// entities sharing cells.
func fullWorld() []session.Entity {
	es := []session.Entity{
		ent(1, rtype.ArchetypePlayerBlue, 150, 150),
		ent(2, rtype.ArchetypePlayerGreen, 150, 250),
		ent(3, rtype.ArchetypePlayerPink, 150, 350),
		ent(4, rtype.ArchetypePlayerRed, 900, 700),
		ent(10, rtype.ArchetypeBullet, 400, 150),
		ent(11, rtype.ArchetypeBullet, 700, 150),
		ent(12, rtype.ArchetypeBullet, 1200, 700),
		ent(13, rtype.ArchetypeBullet, 1250, 700),
		ent(20, rtype.ArchetypeEnemyBidos, 2000, 300), // off the right edge
		ent(21, rtype.ArchetypeEnemyBidos, 1800, 300),
		ent(22, rtype.ArchetypeEnemyBidos, 1500, 520),
		ent(23, rtype.ArchetypeEnemyBidos, 1650, 880),
		ent(24, rtype.ArchetypeEnemyBidos, 1100, 420),
		ent(25, rtype.ArchetypeEnemyBidos, 1920, 1080), // the far corner, drawn
		ent(26, rtype.ArchetypeEnemyBidos, 150, 350),   // under ship 3
		ent(27, rtype.ArchetypeBullet, 1100, 420),      // over Bydos 24
		ent(99, rtype.Archetype(0x1234), 1000, 100),    // unknown: not drawn (§9.3)
	}
	tiles := []rtype.Archetype{
		rtype.ArchetypeLowGround, rtype.ArchetypeMediumGround, rtype.ArchetypeHighGround,
		rtype.ArchetypeRamp, rtype.ArchetypeReactor, rtype.ArchetypeGate,
	}
	for i := range 16 {
		a := tiles[i%len(tiles)]
		x := float64(i) * 120
		es = append(es, ent(uint32(100+i), a, x, 0))    // ceiling: flipped
		es = append(es, ent(uint32(200+i), a, x, 1050)) // ground
	}
	return es
}

var fullHUD = HUD{Tick: 1234, Players: 4, Entities: 49, RTT: 1234567, Loss: 0.0125}

// seq ranges over es, in reverse too: the frame must not depend on the
// table's order.
func seq(es []session.Entity, reverse bool) func(func(session.Entity) bool) {
	if reverse {
		es = slices.Clone(es)
		slices.Reverse(es)
	}
	return slices.Values(es)
}
