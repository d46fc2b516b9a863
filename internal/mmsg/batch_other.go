//go:build !unix

package mmsg

import "net"

type sysBatch struct{}

func (s *sysBatch) init(int) {}

func (s *sysBatch) read(*Conn, []Msg) (int, error) { return 0, ErrUnsupported }

func (s *sysBatch) write(*Conn, []Msg) (int, error) { return 0, ErrUnsupported }

type sock struct{}

func listen(string, *net.UDPAddr) (*Conn, error) { return nil, ErrUnsupported }

func (s *sock) close() error                   { return ErrUnsupported }
func (s *sock) control(func(fd uintptr)) error { return ErrUnsupported }
func (s *sock) timestamps() error              { return ErrUnsupported }
func (s *sock) packetInfo() error              { return ErrUnsupported }

const supported = false
