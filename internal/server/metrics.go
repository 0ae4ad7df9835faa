package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/warden-dev/warden/internal/task"
)

// metrics are the daemon's Prometheus metrics, in a registry of the
// server's own (no global registry: two servers in one test process do not
// collide).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	created  *prometheus.CounterVec
	rejected *prometheus.CounterVec
	webhooks *prometheus.CounterVec
	handler  http.Handler
}

func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "warden_http_requests_total", Help: "HTTP requests by method, route and status code."},
		[]string{"method", "route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "warden_http_request_duration_seconds", Help: "HTTP request latency by route.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}},
		[]string{"route"})
	m.created = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "warden_tasks_created_total", Help: "Tasks created, by source."}, []string{"source"})
	m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "warden_tasks_rejected_total", Help: "Task creations refused, by reason."}, []string{"reason"})
	m.webhooks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "warden_webhook_deliveries_total", Help: "Webhook deliveries by source and outcome (task, duplicate, ignored, error)."}, []string{"source", "outcome"})
	tasks := prometheus.NewDesc("warden_tasks", "Tasks in the store by status.", []string{"status"}, nil)
	sched := prometheus.NewDesc("warden_scheduler_running_agents", "Agents the scheduler runs now.", nil, nil)
	maxA := prometheus.NewDesc("warden_scheduler_max_agents", "serve.max_agents.", nil, nil)
	held := prometheus.NewDesc("warden_scheduler_quota_hold", "1 while quota is critical and new work is held.", nil, nil)
	restarts := prometheus.NewDesc("warden_scheduler_watchdog_restarts_total", "Scheduling loops the watchdog restarted.", nil, nil)
	lastStep := prometheus.NewDesc("warden_scheduler_last_step_timestamp_seconds", "When the scheduler last made a step.", nil, nil)
	m.reg.MustRegister(m.requests, m.latency, m.created, m.rejected, m.webhooks,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectFunc{descs: []*prometheus.Desc{tasks, sched, maxA, held, restarts, lastStep}, collect: func(ch chan<- prometheus.Metric) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if counts, err := s.o.Tasks.CountTasks(ctx); err == nil {
				for _, st := range task.Statuses {
					ch <- prometheus.MustNewConstMetric(tasks, prometheus.GaugeValue, float64(counts[st]), string(st))
				}
			}
			st := s.o.Scheduler.Status()
			ch <- prometheus.MustNewConstMetric(sched, prometheus.GaugeValue, float64(st.Running))
			ch <- prometheus.MustNewConstMetric(maxA, prometheus.GaugeValue, float64(st.MaxAgents))
			h := 0.0
			if st.Held != nil {
				h = 1
			}
			ch <- prometheus.MustNewConstMetric(held, prometheus.GaugeValue, h)
			ch <- prometheus.MustNewConstMetric(restarts, prometheus.CounterValue, float64(st.Restarts))
			if !st.LastStep.IsZero() {
				ch <- prometheus.MustNewConstMetric(lastStep, prometheus.GaugeValue, float64(st.LastStep.UnixNano())/1e9)
			}
		}})
	m.handler = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Timeout: 5 * time.Second})
	return m
}

// observe counts one request; pattern is the mux pattern that served it
// (bounded cardinality: never the raw path).
func (m *metrics) observe(method, pattern string, code int, d time.Duration) {
	if pattern == "" {
		pattern = "unmatched"
	}
	m.requests.WithLabelValues(methodLabel(method), pattern, strconv.Itoa(code)).Inc()
	m.latency.WithLabelValues(pattern).Observe(d.Seconds())
}

// knownMethods are the methods counted under their own name.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true,
}

// methodLabel bounds the method label: requests are counted before any
// auth, so a made-up method would otherwise add a series of its own that
// is never freed (20,000 methods, 20,000 series).
func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "OTHER"
}

func (s *Server) metricsHandler(w http.ResponseWriter, r *http.Request) {
	s.metrics.handler.ServeHTTP(w, r)
}

// Registry lets other features register their metrics on the daemon's.
func (s *Server) Registry() prometheus.Registerer { return s.metrics.reg }

// collectFunc is a collector computed at scrape time.
type collectFunc struct {
	descs   []*prometheus.Desc
	collect func(chan<- prometheus.Metric)
}

func (c collectFunc) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c collectFunc) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }
