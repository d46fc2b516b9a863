package play

import "github.com/rtypeproto/rtype"

// Keys maps a KeyboardEvent.code to the control it holds (§7.1): the
// arrows, WASD, and space to shoot.
func Keys(code string) rtype.Actions {
	switch code {
	case "ArrowUp", "KeyW":
		return rtype.ActionUp
	case "ArrowDown", "KeyS":
		return rtype.ActionDown
	case "ArrowLeft", "KeyA":
		return rtype.ActionLeft
	case "ArrowRight", "KeyD":
		return rtype.ActionRight
	case "Space":
		return rtype.ActionShoot
	}
	return 0
}
