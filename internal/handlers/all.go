package handlers

import "github.com/warden-dev/warden/internal/pipeline"

// All lists every built-in handler, in run order within an Order
// (pipeline.OrderDefault, then pipeline.OrderJudge). Adding a handler is
// one file with a constructor and one line here: no init() registry, so
// the set and its order are visible in one place and a test cannot
// depend on which files happen to be linked.
func All() []pipeline.Handler {
	return []pipeline.Handler{
		agentCriteriaHandler(),
		agentPermissionHandler(),
		cleanupStartHandler(),
		confignoticeHandler(),
		countersHandler(),
		gatesBreakerHandler(),
		gatesPromptHandler(),
		gatesResearchHandler(),
		gatesSafemodeHandler(),
		gatesSelftoggleHandler(),
		gatesStartupHandler(),
		gatesVerifyHandler(),
		judgeDriftHandler(),
		judgeErrorackHandler(),
		judgePretoolHandler(),
		judgeTempoHandler(),
		lifecycleCompactHandler(),
		lifecycleEndHandler(),
		lifecycleStartHandler(),
		lifecycleTrackHandler(),
		loopHandler(),
		pacingHandler(),
		policyHandler(),
		subagentReminderHandler(),
		taskPauseHandler(),
		tampernoticeHandler(),
		usercmdHandler(),
	}
}
