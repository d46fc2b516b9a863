// Command play joins an R-Type server as a player, from a terminal.
package main

func main() {}
