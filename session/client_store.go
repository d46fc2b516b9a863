package session

// entityStore holds the client's entities in a slice indexed by id: one
// lookup per listed entity updates it in place (§8.1).
type entityStore struct {
	index idIndex
	ents  []clientEntity
}

func newEntityStore() entityStore {
	return entityStore{index: newIDIndex(), ents: make([]clientEntity, 0, 64)}
}

func (s *entityStore) len() int { return len(s.ents) }

// get returns entity id, to be updated in place.
func (s *entityStore) get(id uint32) (*clientEntity, bool) {
	i, ok := s.index.get(id)
	if !ok {
		return nil, false
	}
	return &s.ents[i], true
}

func (s *entityStore) add(e clientEntity) {
	s.index.set(e.id, int32(len(s.ents)))
	s.ents = append(s.ents, e)
}

// removeAt takes out the entity at i, moving the last one in its place.
func (s *entityStore) removeAt(i int) clientEntity {
	e := s.ents[i]
	last := len(s.ents) - 1
	if i != last {
		s.ents[i] = s.ents[last]
		s.index.set(s.ents[i].id, int32(i))
	}
	s.ents = s.ents[:last]
	s.index.remove(e.id)
	return e
}

// remove takes out entity id.
func (s *entityStore) remove(id uint32) (clientEntity, bool) {
	i, ok := s.index.get(id)
	if !ok {
		return clientEntity{}, false
	}
	return s.removeAt(int(i)), true
}
