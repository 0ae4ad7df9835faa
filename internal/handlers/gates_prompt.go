package handlers

import (
	"context"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/gates"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Every user prompt is classified (question, task, big task, passthrough)
// and kept in the session state: the research gate opens a new round on a
// task, and the breaker's per-turn failure counts restart with each prompt.
func gatesPromptHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "prompt-kind",
		Events: []event.Name{event.UserPromptSubmit},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			kind := gates.Classify(c.Input.Prompt)
			g := gates.Load(c.State)
			g.NewPrompt(kind, c.Now)
			g.Save(c.State)
			if kind == gates.Passthrough || c.Store == nil {
				return event.Decision{}, nil
			}
			b, err := gates.LoadBreaker(ctx, c.Store, c.ProjectDir)
			if err != nil || len(b.Signatures) == 0 {
				return event.Decision{}, err
			}
			b.NewTurn()
			return event.Decision{}, gates.SaveBreaker(ctx, c.Store, c.ProjectDir, b)
		},
	}
}
