package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
	"github.com/rtypeproto/rtype/qlog"
)

// seenOf is a captured datagram as the report reads it.
func seenOf(at time.Time, client string, toServer bool, dec *wiredump.Decoded) seen {
	s := seen{at: at, client: client, toServer: toServer, length: len(dec.Data)}
	if dec.Err != nil {
		s.drop = wiredump.DropKey(dec.Err)
		return s
	}
	if !dec.HasHeader || dec.Kind != wiredump.Packet {
		return s
	}
	s.packet, s.header = true, dec.Header
	for i := range dec.Messages {
		m := &dec.Messages[i]
		if m.Err != nil {
			continue
		}
		p := m.Raw.Payload
		switch m.Raw.Type {
		case rtype.TypeSnapshot:
			s.snapshot = true
			if v := new(rtype.Snapshot); !toServer && v.UnmarshalBinary(p) == nil {
				s.world = append(s.world, worldMsg{snap: v})
			}
		case rtype.TypeCreateEntity:
			var v rtype.CreateEntity
			if v.UnmarshalBinary(p) == nil {
				s.creates = append(s.creates, v.NetworkID)
				s.world = append(s.world, worldMsg{create: &v})
			}
		case rtype.TypeDestroyEntity:
			var v rtype.DestroyEntity
			if v.UnmarshalBinary(p) == nil {
				s.destroys = append(s.destroys, v.NetworkID)
				s.world = append(s.world, worldMsg{destroy: &v})
			}
		case rtype.TypePing:
			var v rtype.Ping
			if v.UnmarshalBinary(p) == nil {
				s.pings = append(s.pings, v.Timestamp)
			}
		case rtype.TypePong:
			var v rtype.Pong
			if v.UnmarshalBinary(p) == nil {
				s.pongs = append(s.pongs, v.Timestamp)
			}
		}
	}
	return s
}

// traceEvent is the part of a trace event's data the report reads.
type traceEvent struct {
	Header *struct {
		ConnectionID uint32 `json:"connection_id"`
		Sequence     uint32 `json:"sequence"`
		Ack          uint32 `json:"ack"`
		AckBits      uint32 `json:"ack_bits"`
	} `json:"header"`
	Messages []struct {
		Type      string  `json:"type"`
		Valid     bool    `json:"valid"`
		NetworkID *uint32 `json:"networkId"`
		Timestamp *uint32 `json:"timestamp"`
	} `json:"messages"`
	Length   int      `json:"length"`
	Reason   string   `json:"reason"`
	Receiver string   `json:"receiver"`
	Latest   *float64 `json:"latest_rtt"`
}

// readTraces adds the traces at paths to m: each a peer's trace, of a
// server (its peer a client), a client (its peer the server, the client
// named by the file) or the network.
func readTraces(m *reportModel, paths []string) error {
	for _, p := range paths {
		if err := readTrace(m, p); err != nil {
			return err
		}
	}
	return nil
}

func readTrace(m *reportModel, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := qlog.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	h := r.Header()
	client := h.Group
	if h.Vantage == qlog.Client {
		client = path // the server is the peer: the file names the client
	}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		var d traceEvent
		if json.Unmarshal(e.Data, &d) != nil {
			continue
		}
		at := h.Reference.Add(time.Duration(e.Time * float64(time.Millisecond)))
		sent := e.Name == "rtype:packet_sent"
		switch e.Name {
		case "rtype:packet_sent", "rtype:packet_received":
			// The client's side sends up; the server's sends down.
			s := seenOfTrace(at, client, sent != (h.Vantage == qlog.Server), &d)
			m.add(&s)
		case "rtype:packet_dropped":
			toServer := h.Vantage == qlog.Server || d.Receiver == "server"
			m.add(&seen{at: at, client: client, toServer: toServer, length: d.Length, drop: d.Reason})
		case "rtype:rtt_updated":
			if c := m.series(client, at); c != nil && d.Latest != nil && !m.start.IsZero() {
				c.rtt(*d.Latest, c.bin(at, m.start))
			}
		}
	}
}

// seenOfTrace is a traced datagram as the report reads it.
func seenOfTrace(at time.Time, client string, toServer bool, d *traceEvent) seen {
	s := seen{at: at, client: client, toServer: toServer, length: d.Length}
	if d.Header == nil {
		return s
	}
	s.packet = true
	s.header = rtype.PacketHeader{ConnectionID: d.Header.ConnectionID, Sequence: d.Header.Sequence, Ack: d.Header.Ack, AckBits: d.Header.AckBits}
	for _, msg := range d.Messages {
		if !msg.Valid {
			continue
		}
		switch {
		case msg.Type == "Snapshot":
			s.snapshot = true
		case msg.Type == "CreateEntity" && msg.NetworkID != nil:
			s.creates = append(s.creates, *msg.NetworkID)
		case msg.Type == "DestroyEntity" && msg.NetworkID != nil:
			s.destroys = append(s.destroys, *msg.NetworkID)
		}
	}
	return s
}
