package qlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Errors of a trace that does not have the format NewDir writes.
var (
	// ErrFraming: a record not led by RS (0x1E) or not ended by LF.
	ErrFraming = errors.New("qlog: not a JSON-SEQ record")
	// ErrHeader: the first record is not the sequential file schema's
	// header with a vantage point and a reference time.
	ErrHeader = errors.New("qlog: not a qlog sequential header")
	// ErrEvent: a record that is not an event with a time and a name.
	ErrEvent = errors.New("qlog: not an event")
	// ErrTimeBack: an event earlier than the one before it.
	ErrTimeBack = errors.New("qlog: time goes back")
)

// maxRecord bounds a record: a trace's largest, a packet of 548 bytes
// decoded, is a few KiB.
const maxRecord = 1 << 20

// Header is a trace's first record, as read.
type Header struct {
	// Vantage is the trace's vantage point type.
	Vantage Vantage
	// Reference is the time events count from.
	Reference time.Time
	// Group is the peer address the trace is about.
	Group string
}

// Event is one event record, as read: its data left raw.
type Event struct {
	// Time is in milliseconds since the header's Reference.
	Time float64
	// Name is the event's name, such as "rtype:packet_sent".
	Name string
	// Data is the event's data object.
	Data json.RawMessage
}

// Reader reads a trace record by record, checking its format.
type Reader struct {
	r      *bufio.Reader
	header Header
	last   float64
	n      int // records read
}

// NewReader reads the header of the trace in r.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 64<<10)}
	rec, err := rd.record()
	if err != nil {
		return nil, err
	}
	var h struct {
		FileSchema          string `json:"file_schema"`
		SerializationFormat string `json:"serialization_format"`
		Trace               struct {
			VantagePoint struct {
				Type Vantage `json:"type"`
			} `json:"vantage_point"`
			CommonFields struct {
				ReferenceTime struct {
					Epoch string `json:"epoch"`
				} `json:"reference_time"`
				GroupID string `json:"group_id"`
			} `json:"common_fields"`
		} `json:"trace"`
	}
	if json.Unmarshal(rec, &h) != nil || h.FileSchema != "urn:ietf:params:qlog:file:sequential" ||
		h.SerializationFormat != "application/qlog+json-seq" || h.Trace.VantagePoint.Type == "" {
		return nil, ErrHeader
	}
	ref, err := time.Parse(time.RFC3339Nano, h.Trace.CommonFields.ReferenceTime.Epoch)
	if err != nil {
		return nil, fmt.Errorf("%w: reference time: %w", ErrHeader, err)
	}
	rd.header = Header{Vantage: h.Trace.VantagePoint.Type, Reference: ref, Group: h.Trace.CommonFields.GroupID}
	return rd, nil
}

// Header returns the trace's header.
func (r *Reader) Header() Header { return r.header }

// Next returns the next event; io.EOF after the last, and an error
// wrapping one of this package's for a record out of format, naming its
// number (the header is record 1).
func (r *Reader) Next() (Event, error) {
	rec, err := r.record()
	if err != nil {
		return Event{}, err
	}
	var e struct {
		Time *float64        `json:"time"`
		Name string          `json:"name"`
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(rec, &e) != nil || e.Time == nil || e.Name == "" {
		return Event{}, fmt.Errorf("record %d: %w", r.n, ErrEvent)
	}
	if *e.Time < r.last {
		return Event{}, fmt.Errorf("record %d at %v ms, after %v ms: %w", r.n, *e.Time, r.last, ErrTimeBack)
	}
	r.last = *e.Time
	return Event{Time: *e.Time, Name: e.Name, Data: e.Data}, nil
}

// record reads one RS … LF record and returns its JSON.
func (r *Reader) record() ([]byte, error) {
	c, err := r.r.ReadByte()
	if err == io.EOF && r.n > 0 {
		return nil, io.EOF
	}
	r.n++
	if err != nil || c != rs {
		return nil, fmt.Errorf("record %d: %w", r.n, ErrFraming)
	}
	var line []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxRecord {
			return nil, fmt.Errorf("record %d over %d bytes: %w", r.n, maxRecord, ErrFraming)
		}
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("record %d: %w", r.n, ErrFraming)
		}
	}
	return bytes.TrimSuffix(line, []byte("\n")), nil
}

// ReadFile reads the whole trace at path, checking its format.
func ReadFile(path string) (Header, []Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, err
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		return Header{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	var evs []Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			return r.header, evs, nil
		}
		if err != nil {
			return r.header, evs, fmt.Errorf("%s: %w", path, err)
		}
		evs = append(evs, e)
	}
}
