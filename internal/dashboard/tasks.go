package dashboard

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// taskColumns are the board's columns; a state outside them goes to the
// nearest (claimed with running, cancelled with failed, anything unknown
// with queued).
var taskColumns = []string{"queued", "running", "paused", "done", "failed"}

// column is one board column.
type column struct {
	State string
	Tasks []Task
}

// tasksData is the tasks page.
type tasksData struct {
	Columns []column
	Total   int
	Added   string // id of the task just added
}

func boardOf(ts []Task) []column {
	cols := make([]column, len(taskColumns))
	idx := map[string]int{}
	for i, st := range taskColumns {
		cols[i].State = st
		idx[st] = i
	}
	for _, t := range ts {
		i, ok := idx[t.State]
		if !ok {
			switch t.State {
			case "cancelled", "canceled", "error", "timed_out":
				i = idx["failed"]
			case "claimed", "spawning", "working", "waiting":
				i = idx["running"]
			default:
				i = idx["queued"]
			}
		}
		cols[i].Tasks = append(cols[i].Tasks, t)
	}
	return cols
}

func (s *Server) tasks(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Tasks", "tasks", tok)
	src := s.opt.Sources.Tasks
	if src == nil {
		p.Missing = "the task queue (run `warden serve`)"
		s.render(w, r, http.StatusOK, "tasks", p)
		return
	}
	ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), sourceTimeout)
	defer cancel()
	ts, err := src.List(ctx)
	s.fail(&p, "tasks", err)
	for i := range ts {
		s.attach(&ts[i])
	}
	p.Data = tasksData{Columns: boardOf(ts), Total: len(ts), Added: r.URL.Query().Get("added")}
	s.render(w, r, http.StatusOK, "tasks", p)
}

func (s *Server) task(w http.ResponseWriter, r *http.Request, tok string) {
	p := s.newPage("Task", "tasks", tok)
	src := s.opt.Sources.Tasks
	if src == nil {
		p.Missing = "the task queue (run `warden serve`)"
		s.render(w, r, http.StatusOK, "task", p)
		return
	}
	ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), sourceTimeout)
	defer cancel()
	st, err := src.Story(ctx, r.PathValue("id"))
	if err != nil {
		s.renderError(w, r, p, http.StatusInternalServerError, "task "+r.PathValue("id")+": "+err.Error())
		return
	}
	if st == nil {
		s.renderError(w, r, p, http.StatusNotFound, "no task "+r.PathValue("id"))
		return
	}
	s.attach(&st.Task)
	p.Title = "Task " + st.Task.ID
	p.Data = st
	s.render(w, r, http.StatusOK, "task", p)
}

// maxPrompt bounds a task's prompt from the form.
const maxPrompt = 64 << 10

func (s *Server) addTask(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxPrompt+4096)
	tok, ok := s.checkMutation(w, r)
	if !ok {
		return
	}
	src := s.opt.Sources.Tasks
	if src == nil {
		http.Error(w, "no task queue: run `warden serve`", http.StatusServiceUnavailable)
		return
	}
	nt := NewTask{Prompt: strings.TrimSpace(r.PostFormValue("prompt")), Project: strings.TrimSpace(r.PostFormValue("project")),
		Agent: strings.TrimSpace(r.PostFormValue("agent"))}
	p := s.newPage("Tasks", "tasks", tok)
	if nt.Prompt == "" {
		s.renderError(w, r, p, http.StatusBadRequest, "a task needs a prompt: say what the agent should do")
		return
	}
	if v := r.PostFormValue("priority"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 100 {
			s.renderError(w, r, p, http.StatusBadRequest, "priority "+strconv.Quote(v)+": want a number 0–100 (higher runs first)")
			return
		}
		nt.Priority = n
	}
	// One criterion per line; operations separated by commas or spaces.
	// The API checks them and its error is shown as it is.
	for _, l := range strings.Split(r.PostFormValue("done_when"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			nt.Criteria = append(nt.Criteria, l)
		}
	}
	ops := func(v string) []string {
		return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	nt.Allow, nt.Deny = ops(r.PostFormValue("allow")), ops(r.PostFormValue("deny"))
	ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), sourceTimeout)
	defer cancel()
	t, err := src.Add(ctx, nt)
	if err != nil {
		s.renderError(w, r, p, http.StatusBadRequest, "add task: "+err.Error())
		return
	}
	http.Redirect(w, r, "/tasks?added="+t.ID, http.StatusSeeOther)
}

func (s *Server) cancelTask(w http.ResponseWriter, r *http.Request) {
	tok, ok := s.checkMutation(w, r)
	if !ok {
		return
	}
	src := s.opt.Sources.Tasks
	if src == nil {
		http.Error(w, "no task queue: run `warden serve`", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), sourceTimeout)
	defer cancel()
	if err := src.Cancel(ctx, r.PathValue("id")); err != nil {
		s.renderError(w, r, s.newPage("Tasks", "tasks", tok), http.StatusBadRequest, "cancel task "+r.PathValue("id")+": "+err.Error())
		return
	}
	http.Redirect(w, r, "/tasks", http.StatusSeeOther)
}

// answerTimeout bounds an answer: a denial waits for Claude Code to close
// its dialog and take the typed reason (internal/agent/answer.go).
const answerTimeout = 30 * time.Second

// answerTask approves (once, or always for the task: the form's
// always=1) or denies the call a waiting task's agent asks about, through
// the API (the same path as `warden task approve|deny`).
func (s *Server) answerTask(approve bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok, ok := s.checkMutation(w, r)
		if !ok {
			return
		}
		id := r.PathValue("id")
		ans, _ := s.opt.Sources.Tasks.(TaskAnswers)
		if ans == nil {
			http.Error(w, "no task queue: run `warden serve`", http.StatusServiceUnavailable)
			return
		}
		ctx, cancel := context.WithTimeout(WithToken(r.Context(), tok), answerTimeout)
		defer cancel()
		verb := "approve"
		if !approve {
			verb = "deny"
		}
		always := approve && r.PostFormValue("always") == "1"
		if _, err := ans.Answer(ctx, id, approve, always, strings.TrimSpace(r.PostFormValue("reason"))); err != nil {
			s.renderError(w, r, s.newPage("Tasks", "tasks", tok), http.StatusConflict, verb+" the call of task "+id+": "+err.Error())
			return
		}
		back := "/tasks/" + id
		if r.PostFormValue("from") == "board" {
			back = "/tasks"
		}
		http.Redirect(w, r, back, http.StatusSeeOther)
	}
}

// attach fills in the attach command of a task whose agent runs (or is
// paused) from AttachHint, when the source gave none.
func (s *Server) attach(t *Task) {
	if t.Attach != "" || s.opt.AttachHint == "" {
		return
	}
	switch t.State {
	case "claimed", "running", "paused":
		t.Attach = strings.ReplaceAll(s.opt.AttachHint, "{id}", t.ID)
	}
}
