//go:build js && wasm

// Command client is the page rtypeweb serves, compiled to WebAssembly
// (GOOS=js GOARCH=wasm): the session client and its smooth view, the same
// Go code a native game runs, over the datagrams of a WebTransport
// session to the gateway, which relays them to the R-Type server over
// UDP. It draws the playfield on the page's canvas at the display's frame
// rate, the own ship predicted, reads the arrows (or WASD) and space, and
// shows a HUD of the session's figures and the gateway's.
//
// It sets window.rtypeStats(), the figures as JSON, and window.rtypeQuit(),
// which leaves the game as Escape does: Disconnect, reason 1 (§7.3).
// Only rtypeweb serves it: docs/browser.md.
package main
