package main

import "io"

// seekable returns in as an io.ReadSeeker when it can go back to where it
// stands: a file, not a pipe.
func seekable(in io.Reader) (io.ReadSeeker, bool) {
	rs, ok := in.(io.ReadSeeker)
	if !ok {
		return nil, false
	}
	_, err := rs.Seek(0, io.SeekCurrent)
	return rs, err == nil
}

// twoPasses finds the server in a first pass over rs, then decodes the
// capture from where rs stood.
func (d *dumper) twoPasses(rs io.ReadSeeker) error {
	start, err := rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	err = survey(rs, &d.find)
	port, by := d.find.server()
	if by < d.need {
		return err // nothing to decode; a fault is the first pass's
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return err
	}
	d.serve(port, by)
	return d.frames(rs)
}

// survey shows f every UDP datagram of the capture r holds, up to its end
// or a fault.
func survey(r io.Reader, f *serverFinder) error {
	c, err := openCapture(r)
	if err != nil {
		return err
	}
	for {
		fr, err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if u, ok := udpOf(fr); ok {
			f.add(&u)
		}
	}
}
