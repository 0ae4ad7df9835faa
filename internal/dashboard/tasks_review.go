package dashboard

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// reviewTimeout bounds a reply (typed into the agent's prompt, which
// waits for Claude Code to take it) or a merge (a push and gh for a pull
// request).
const reviewTimeout = 3 * time.Minute

// reviewTask is the task page's Reply form and Merge buttons, through
// the API (the same path as `warden task reply|merge`): back to the
// task's page, where its story shows what happened; a refusal is shown
// with the API's message.
func (s *Server) reviewTask(action string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		tok, ok := s.checkMutation(w, r)
		if !ok {
			return
		}
		id := r.PathValue("id")
		rv, _ := s.opt.Sources.Tasks.(TaskReview)
		if rv == nil {
			http.Error(w, "no task queue: run `warden serve`", http.StatusServiceUnavailable)
			return
		}
		p := s.newPage("Tasks", "tasks", tok)
		ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), reviewTimeout)
		defer cancel()
		var err error
		if action == "reply" {
			text := strings.TrimSpace(r.PostFormValue("text"))
			if text == "" {
				s.renderError(w, r, p, http.StatusBadRequest, "a reply needs text: say what the agent should do")
				return
			}
			_, err = rv.Reply(ctx, id, text)
		} else {
			_, err = rv.Merge(ctx, id, r.PostFormValue("pr") == "1")
		}
		if err != nil {
			s.renderError(w, r, p, http.StatusConflict, action+" task "+id+": "+err.Error())
			return
		}
		http.Redirect(w, r, "/tasks/"+id, http.StatusSeeOther)
	}
}
