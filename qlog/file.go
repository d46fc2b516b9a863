package qlog

import (
	"bufio"
	"encoding/json"
	"errors"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rtypeproto/rtype"
	"github.com/rtypeproto/rtype/internal/wiredump"
	"github.com/rtypeproto/rtype/session"
)

// Record framing of JSON-SEQ (RFC 7464): each record is RS, JSON, LF.
const rs = 0x1E

// file is one peer's trace.
type file struct {
	f     *os.File
	w     *bufio.Writer
	start time.Time // the reference time: the first event's
	last  float64   // the last event's time, so that none goes back
	buf   []byte
}

// header writes the first record: the file's schema and the trace's
// vantage point and reference time.
func (f *file) header(v Vantage, peer netip.AddrPort) error {
	b := append(f.buf[:0], rs)
	b = append(b, `{"file_schema":"urn:ietf:params:qlog:file:sequential","serialization_format":"application/qlog+json-seq","title":"rtype protocol v1","trace":{"vantage_point":{"type":`...)
	b = appendString(b, string(v))
	if v == Network {
		b = append(b, `,"flow":"client"`...) // events as the client saw the network
	}
	b = append(b, `},"common_fields":{"time_format":"relative_to_epoch","reference_time":{"clock_type":"system","epoch":`...)
	b = appendString(b, f.start.UTC().Format(time.RFC3339Nano))
	b = append(b, `},"group_id":`...)
	b = appendString(b, peer.String())
	b = append(b, "}}}\n"...)
	f.buf = b
	_, err := f.w.Write(b)
	return err
}

// event writes e as one record.
func (f *file) event(e *session.TraceEvent) error {
	return f.write(e.Time, e.Kind, func(b []byte) []byte { return appendData(b, e) })
}

// write writes the record of an event of kind k at at, its data appended
// by data.
func (f *file) write(at time.Time, k session.TraceKind, data func([]byte) []byte) error {
	ms := max(float64(at.Sub(f.start).Microseconds())/1000, f.last)
	f.last = ms
	b := append(f.buf[:0], rs)
	b = append(b, `{"time":`...)
	b = strconv.AppendFloat(b, ms, 'f', -1, 64)
	b = append(b, `,"name":"rtype:`...)
	b = append(b, eventName(k)...)
	b = append(b, `","data":`...)
	b = data(b)
	b = append(b, "}\n"...)
	f.buf = b
	_, err := f.w.Write(b)
	return err
}

func (f *file) close() error {
	return errors.Join(f.w.Flush(), f.f.Close())
}

// eventNames are the events' names after "rtype:", by kind.
var eventNames = [...]string{
	session.TracePacketSent:     "packet_sent",
	session.TracePacketReceived: "packet_received",
	session.TracePacketDropped:  "packet_dropped",
	session.TracePacketLost:     "packet_lost",
	session.TraceStateUpdated:   "connection_state_updated",
	session.TraceRTTUpdated:     "rtt_updated",
	session.TraceEntityResent:   "entity_resent",
	// A server's connections have their own states, written alike.
	session.TraceConnStateUpdated: "connection_state_updated",
}

func eventName(k session.TraceKind) string {
	if int(k) < len(eventNames) && eventNames[k] != "" {
		return eventNames[k]
	}
	return "unknown"
}

// appendString appends s as a JSON string: strconv's quoting where it is
// JSON's too (printable ASCII), encoding/json's otherwise, as for a
// Vantage a caller named.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendData appends the data object of e.
func appendData(b []byte, e *session.TraceEvent) []byte {
	switch e.Kind {
	case session.TracePacketSent, session.TracePacketReceived:
		return appendDatagram(b, e.Datagram)
	case session.TracePacketDropped:
		b = append(b, `{"reason":`...)
		b = appendString(b, e.Drop.Key())
		b = append(b, `,"length":`...)
		b = strconv.AppendInt(b, int64(len(e.Datagram)), 10)
		return append(b, '}')
	case session.TracePacketLost:
		b = append(b, `{"sequence":`...)
		b = strconv.AppendUint(b, uint64(e.Sequence), 10)
		return append(b, '}')
	case session.TraceStateUpdated:
		return appendState(b, e.State.String(), e.Conn, e.State == session.Closed, e.Close)
	case session.TraceConnStateUpdated:
		return appendState(b, e.ConnState.String(), e.Conn, e.ConnState == session.ConnClosed, e.Close)
	case session.TraceRTTUpdated:
		b = append(b, `{"latest_rtt":`...)
		b = appendMillis(b, e.RTT)
		b = append(b, `,"smoothed_rtt":`...)
		b = appendMillis(b, e.SRTT)
		return append(b, '}')
	case session.TraceEntityResent:
		b = append(b, `{"entity_id":`...)
		b = strconv.AppendUint(b, uint64(e.Entity), 10)
		b = append(b, `,"message":`...)
		b = appendString(b, e.Message.String())
		return append(b, '}')
	}
	return append(b, "{}"...)
}

// appendState appends a connection_state_updated's data: the state
// entered and, once closed, why.
func appendState(b []byte, state string, conn uint32, closed bool, why session.CloseReason) []byte {
	b = append(b, `{"new":`...)
	b = appendString(b, strings.ToLower(state))
	b = append(b, `,"connection_id":`...)
	b = strconv.AppendUint(b, uint64(conn), 10)
	if closed {
		b = append(b, `,"reason":`...)
		b = appendString(b, strings.ToLower(why.String()))
	}
	return append(b, '}')
}

func appendMillis(b []byte, d time.Duration) []byte {
	return strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', -1, 64)
}

// appendDatagram appends a datagram's data: a handshake's type and
// connection id (§4), or a packet's header and messages (§5, §6), and its
// length.
func appendDatagram(b []byte, dg []byte) []byte {
	b = append(b, '{')
	if t, id, err := rtype.ParseHandshake(dg); err == nil {
		b = append(b, `"handshake":{"type":`...)
		b = appendString(b, strings.ToLower(t.String()))
		b = append(b, `,"connection_id":`...)
		b = strconv.AppendUint(b, uint64(id), 10)
		b = append(b, "},"...)
	} else if d := wiredump.Decode(wiredump.Packet, dg); d.HasHeader {
		h := d.Header
		b = append(b, `"header":{"connection_id":`...)
		b = strconv.AppendUint(b, uint64(h.ConnectionID), 10)
		b = append(b, `,"sequence":`...)
		b = strconv.AppendUint(b, uint64(h.Sequence), 10)
		b = append(b, `,"ack":`...)
		b = strconv.AppendUint(b, uint64(h.Ack), 10)
		b = append(b, `,"ack_bits":`...)
		b = strconv.AppendUint(b, uint64(h.AckBits), 10)
		b = append(b, `},"messages":[`...)
		for i := range d.Messages {
			if i > 0 {
				b = append(b, ',')
			}
			m, _ := json.Marshal(d.Messages[i].Object())
			b = append(b, m...)
		}
		b = append(b, "],"...)
	}
	b = append(b, `"length":`...)
	b = strconv.AppendInt(b, int64(len(dg)), 10)
	return append(b, '}')
}
