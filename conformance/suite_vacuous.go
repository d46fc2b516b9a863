package conformance

// vacuous ends the case as not run because its rule never applied: the
// case drove the implementation to where the rule binds and saw it stop
// short, as the spec lets it (a server that destroys its missiles inside
// the encodable range never has a position to clamp, §9.1). The result
// is marked Vacuous, which does not count for Report.Status, and its
// detail says so first.
func (t *check) vacuous(format string, args ...any) {
	t.mu.Lock()
	t.srv.vacuous = true
	t.mu.Unlock()
	t.Skipf("vacuous, not counted: "+format, args...)
}
