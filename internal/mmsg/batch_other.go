//go:build !unix

package mmsg

type sysBatch struct{}

func (s *sysBatch) init(int) {}

func (s *sysBatch) read(*Conn, []Msg) (int, error) { return 0, ErrUnsupported }

func (s *sysBatch) write(*Conn, []Msg) (int, error) { return 0, ErrUnsupported }

func timestamps(*Conn) error { return ErrUnsupported }
const supported = false
