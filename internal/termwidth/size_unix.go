//go:build linux || darwin

package termwidth

import (
	"os"
	"syscall"
	"unsafe"
)

// winsize is the kernel's struct winsize, which TIOCGWINSZ fills.
type winsize struct {
	Row, Col, Xpixel, Ypixel uint16
}

// windowSize asks the terminal f is for its size, and false when f is no
// terminal.
func windowSize(f *os.File) (cols, rows int, ok bool) {
	var ws winsize
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno != 0 || ws.Col == 0 {
		return 0, 0, false
	}
	return int(ws.Col), int(ws.Row), true
}
