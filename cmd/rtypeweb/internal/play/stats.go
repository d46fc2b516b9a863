package play

import (
	"time"

	"github.com/rtypeproto/rtype/session"
)

// Stats are the page's figures, for its HUD and for the tests that read
// them back from the page (window.rtypeStats()).
type Stats struct {
	State        string  `json:"state"`
	Why          string  `json:"why,omitempty"` // why the session was lost
	ConnectionID uint32  `json:"connectionId"`
	Frames       uint64  `json:"frames"`
	FrameP50Ms   float64 `json:"frameP50Ms"`
	FrameP99Ms   float64 `json:"frameP99Ms"`
	LoadMs       float64 `json:"loadMs"`       // from the navigation to the program's start
	FirstFrameMs float64 `json:"firstFrameMs"` // from the navigation to the first frame with the world
	// RTTMs is the latest Ping's round trip (§7.2); SRTTMs the client's
	// smoothed one, slow to forget the first Pings of a page still
	// compiling its program.
	RTTMs  float64 `json:"rttMs"`
	SRTTMs float64 `json:"srttMs"`
	// The intervals between the arrivals of two Snapshot rounds (§8.1):
	// the server's interval, 50 ms for the example, and the network's
	// jitter.
	SnapshotGapP50Ms float64 `json:"snapshotGapP50Ms"`
	SnapshotGapP99Ms float64 `json:"snapshotGapP99Ms"`
	Loss             float64 `json:"loss"`
	Snapshots        uint64  `json:"snapshots"`
	Entities         int     `json:"entities"`
	Ships            int     `json:"ships"` // player ships known, the own one too
	Own              *Ship   `json:"own,omitempty"`

	// The smooth view's figures (session.ViewStats).
	ViewFrames      uint64  `json:"viewFrames"`
	RenderDelayMs   float64 `json:"renderDelayMs"`
	Interpolated    uint64  `json:"interpolated"`
	Extrapolated    uint64  `json:"extrapolated"`
	Held            uint64  `json:"held"`
	Snaps           uint64  `json:"snaps"`
	Corrections     uint64  `json:"corrections"`
	CorrectionSnaps uint64  `json:"correctionSnaps"`

	Gateway GatewayFigures `json:"gateway"`
}

// Ship is the own ship as the server last placed it.
type Ship struct {
	ID uint32  `json:"id"`
	X  float64 `json:"x"`
	Y  float64 `json:"y"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Stats returns the player's figures now.
func (p *Player) Stats() Stats {
	c := p.client
	cs, vs := c.Stats(), p.view.Stats()
	p50, p99 := p.frames.percentiles()
	g50, g99 := p.rounds.percentiles()
	s := Stats{
		State: c.State().String(), ConnectionID: c.ConnectionID(),
		Frames: p.frames.n, FrameP50Ms: ms(p50), FrameP99Ms: ms(p99),
		SnapshotGapP50Ms: ms(g50), SnapshotGapP99Ms: ms(g99),
		RTTMs: ms(p.rtt), SRTTMs: ms(cs.SRTT), Loss: cs.Loss(), Snapshots: cs.Snapshots, Entities: c.NumEntities(),
		ViewFrames: vs.Frames, RenderDelayMs: ms(vs.Delay),
		Interpolated: vs.Interpolated, Extrapolated: vs.Extrapolated, Held: vs.Held, Snaps: vs.Snaps,
		Corrections: vs.Corrections, CorrectionSnaps: vs.CorrectionSnaps,
		Gateway: p.gw, LoadMs: p.loadMs,
	}
	s.Why = p.why
	if p.quit {
		s.State = "Quit"
	}
	if !p.first.IsZero() {
		s.FirstFrameMs = p.loadMs + ms(p.first.Sub(p.start))
	}
	for e := range c.Entities() {
		if isShip(e) {
			s.Ships++
		}
	}
	if e, ok := p.Own(); ok {
		s.Own = &Ship{ID: e.ID, X: e.X, Y: e.Y}
	}
	return s
}

func isShip(e session.Entity) bool { _, ok := shipColors[e.Archetype]; return ok }
