package session

// placeState is where an entry of the Server's fixed tables, a player slot
// or a place in the waiting queue, is in its life. Each table has its two
// named transitions: join and closeConn for a slot, enqueue and
// unqueue for the queue.
type placeState uint8

const (
	// placeFree: the entry holds no client.
	placeFree placeState = iota
	// placeTaken: the entry holds a client's peer.
	placeTaken
)
