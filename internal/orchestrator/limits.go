package orchestrator

// SetLimits changes how many tasks run at once and how often a task is
// claimed (a reloaded serve.max_agents, serve.max_attempts); values <= 0
// keep the current one. Tasks already running keep their slots: fewer
// slots only stop new starts until enough have finished.
func (s *Scheduler) SetLimits(maxAgents, maxAttempts int) {
	cur := s.limits.Load()
	next := [2]int{4, 3}
	if cur != nil {
		next = *cur
	}
	if maxAgents > 0 {
		next[0] = maxAgents
	}
	if maxAttempts > 0 {
		next[1] = maxAttempts
	}
	s.limits.Store(&next)
	s.Notify() // a slot may have opened
}

func (s *Scheduler) maxAgents() int   { return s.limits.Load()[0] }
func (s *Scheduler) maxAttempts() int { return s.limits.Load()[1] }
