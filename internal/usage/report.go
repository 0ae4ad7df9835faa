package usage

import (
	"math"
	"slices"
	"sort"
	"time"
)

// Filter selects entries for a report.
type Filter struct {
	Since, Until string         // YYYYMMDD, inclusive, in Loc; "" = open
	Project      string         // project directory name; "" = all
	Loc          *time.Location // nil = UTC
}

func (f *Filter) loc() *time.Location {
	if f.Loc == nil {
		return time.UTC
	}
	return f.Loc
}

// Select returns the entries that pass the filter, in time order.
func (d *Data) Select(f Filter) []*Entry {
	out := make([]*Entry, 0, len(d.Entries))
	loc := f.loc()
	for i := range d.Entries {
		e := &d.Entries[i]
		if f.Project != "" && d.Files[e.File].Project != f.Project {
			continue
		}
		if f.Since != "" || f.Until != "" {
			day := time.UnixMilli(e.TS).In(loc).Format("20060102")
			if (f.Since != "" && day < f.Since) || (f.Until != "" && day > f.Until) {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// ModelBreakdown is one model's share of a row.
type ModelBreakdown struct {
	CacheCreationTokens int64   `json:"cacheCreationTokens"`
	CacheReadTokens     int64   `json:"cacheReadTokens"`
	Cost                float64 `json:"cost"`
	InputTokens         int64   `json:"inputTokens"`
	MissingPricing      bool    `json:"missingPricing,omitempty"` // the price table does not know the model
	ModelName           string  `json:"modelName"`
	OutputTokens        int64   `json:"outputTokens"`
}

// Totals is the totals object of session, daily, weekly and monthly JSON.
type Totals struct {
	CacheCreationTokens int64    `json:"cacheCreationTokens"`
	CacheReadTokens     int64    `json:"cacheReadTokens"`
	InputTokens         int64    `json:"inputTokens"`
	OutputTokens        int64    `json:"outputTokens"`
	TotalCost           float64  `json:"totalCost"`
	TotalTokens         int64    `json:"totalTokens"`
	UnpricedModels      []string `json:"unpricedModels,omitempty"`
}

// agg sums entries, per model too.
type agg struct {
	in, out, cc, cr int64
	cost            float64
	first, last     int64
	n               int
	models          []string
	byModel         map[string]*ModelBreakdown
}

func (a *agg) add(d *Data, e *Entry) {
	if a.n == 0 || e.TS < a.first {
		a.first = e.TS
	}
	if a.n == 0 || e.TS > a.last {
		a.last = e.TS
	}
	a.n++
	cc := e.CacheCreation()
	a.in += e.In
	a.out += e.Out
	a.cc += cc
	a.cr += e.CacheRead
	a.cost += e.cost
	m := d.ModelName(e)
	if m == "" {
		return
	}
	if a.byModel == nil {
		a.byModel = map[string]*ModelBreakdown{}
	}
	b := a.byModel[m]
	if b == nil {
		b = &ModelBreakdown{ModelName: m}
		a.byModel[m] = b
		a.models = append(a.models, m)
	}
	b.InputTokens += e.In
	b.OutputTokens += e.Out
	b.CacheCreationTokens += cc
	b.CacheReadTokens += e.CacheRead
	b.Cost += e.cost
	if !e.priced {
		b.MissingPricing = true
	}
}

func (a *agg) total() int64 { return a.in + a.out + a.cc + a.cr }

// breakdowns: most expensive first.
func (a *agg) breakdowns() []ModelBreakdown {
	out := make([]ModelBreakdown, 0, len(a.models))
	for _, m := range a.models {
		out = append(out, *a.byModel[m])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cost > out[j].Cost })
	return out
}

func modelsOrEmpty(m []string) []string {
	if m == nil {
		return []string{}
	}
	return m
}

// unpriced lists models the price table does not know.
func unpriced(d *Data, es []*Entry) []string {
	set := map[string]bool{}
	for _, e := range es {
		if !e.priced {
			if m := d.ModelName(e); m != "" {
				set[m] = true
			}
		}
	}
	var out []string
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func totals(d *Data, es []*Entry) Totals {
	var a agg
	for _, e := range es {
		a.in += e.In
		a.out += e.Out
		a.cc += e.CacheCreation()
		a.cr += e.CacheRead
		a.cost += e.cost
	}
	return Totals{CacheCreationTokens: a.cc, CacheReadTokens: a.cr, InputTokens: a.in, OutputTokens: a.out,
		TotalCost: a.cost, TotalTokens: a.total(), UnpricedModels: unpriced(d, es)}
}

// SessionRow is one row of the session report (ccusage's field names).
type SessionRow struct {
	CacheCreationTokens int64            `json:"cacheCreationTokens"`
	CacheReadTokens     int64            `json:"cacheReadTokens"`
	FirstActivity       string           `json:"firstActivity"`
	InputTokens         int64            `json:"inputTokens"`
	LastActivity        string           `json:"lastActivity"`
	ModelBreakdowns     []ModelBreakdown `json:"modelBreakdowns"`
	ModelsUsed          []string         `json:"modelsUsed"`
	OutputTokens        int64            `json:"outputTokens"`
	ProjectPath         string           `json:"projectPath"`
	SessionID           string           `json:"sessionId"`
	TotalCost           float64          `json:"totalCost"`
	TotalTokens         int64            `json:"totalTokens"`
}

// SessionReport is `usage session --json`.
type SessionReport struct {
	Sessions []SessionRow `json:"sessions"`
	Totals   Totals       `json:"totals"`
}

// ISO formats unix ms as ccusage does (UTC, milliseconds, Z).
func ISO(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }

// Sessions groups entries by (project, session), most expensive first.
func Sessions(d *Data, es []*Entry) SessionReport {
	// In file order (as ccusage reads them), so modelsUsed lists models in
	// the order the files name them.
	es = bySeq(es)
	type sk struct{ project, session string }
	aggs := map[sk]*agg{}
	var order []sk
	for _, e := range es {
		f := &d.Files[e.File]
		k := sk{f.Project, f.Session}
		a := aggs[k]
		if a == nil {
			a = &agg{}
			aggs[k] = a
			order = append(order, k)
		}
		a.add(d, e)
	}
	rows := make([]SessionRow, 0, len(order))
	for _, k := range order {
		a := aggs[k]
		rows = append(rows, SessionRow{
			CacheCreationTokens: a.cc, CacheReadTokens: a.cr, InputTokens: a.in, OutputTokens: a.out,
			FirstActivity: ISO(a.first), LastActivity: ISO(a.last),
			ModelBreakdowns: a.breakdowns(), ModelsUsed: modelsOrEmpty(a.models),
			ProjectPath: k.project, SessionID: k.session, TotalCost: a.cost, TotalTokens: a.total(),
		})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].TotalCost != rows[j].TotalCost {
			return rows[i].TotalCost > rows[j].TotalCost
		}
		return rows[i].SessionID < rows[j].SessionID
	})
	return SessionReport{Sessions: rows, Totals: totals(d, es)}
}

// PeriodRow is one row of the daily, weekly or monthly report; Period is
// rendered under the report's key (date, week, month).
type PeriodRow struct {
	Period              string
	CacheCreationTokens int64
	CacheReadTokens     int64
	InputTokens         int64
	ModelBreakdowns     []ModelBreakdown
	ModelsUsed          []string
	OutputTokens        int64
	TotalCost           float64
	TotalTokens         int64
}

// Period kinds.
const (
	Daily   = "daily"
	Weekly  = "weekly"
	Monthly = "monthly"
)

// PeriodKey is the JSON key of a period row's label.
func PeriodKey(kind string) string {
	switch kind {
	case Weekly:
		return "week"
	case Monthly:
		return "month"
	}
	return "date"
}

// Periods groups entries by local date, week (starting on startOfWeek) or
// month, oldest first.
func Periods(d *Data, es []*Entry, kind string, loc *time.Location, startOfWeek time.Weekday) ([]PeriodRow, Totals) {
	if loc == nil {
		loc = time.UTC
	}
	// ccusage lists a day's models in the order the files name them, and a
	// week's or month's as the union of its days' lists, oldest day first.
	es = bySeq(es)
	aggs := map[string]*agg{}
	dayModels := map[string]*agg{} // only models, in file order
	periodDays := map[string][]string{}
	var keys []string
	for _, e := range es {
		t := time.UnixMilli(e.TS).In(loc)
		day := t.Format("2006-01-02")
		var k string
		switch kind {
		case Monthly:
			k = t.Format("2006-01")
		case Weekly:
			back := (int(t.Weekday()) - int(startOfWeek) + 7) % 7
			y, m, dd := t.Date()
			k = time.Date(y, m, dd-back, 12, 0, 0, 0, time.UTC).Format("2006-01-02")
		default:
			k = day
		}
		a := aggs[k]
		if a == nil {
			a = &agg{}
			aggs[k] = a
			keys = append(keys, k)
		}
		a.add(d, e)
		dm := dayModels[day]
		if dm == nil {
			dm = &agg{}
			dayModels[day] = dm
			periodDays[k] = append(periodDays[k], day)
		}
		if m := d.ModelName(e); m != "" && !slices.Contains(dm.models, m) {
			dm.models = append(dm.models, m)
		}
	}
	sort.Strings(keys)
	rows := make([]PeriodRow, 0, len(keys))
	for _, k := range keys {
		a := aggs[k]
		days := periodDays[k]
		sort.Strings(days)
		var models []string
		for _, day := range days {
			for _, m := range dayModels[day].models {
				if !slices.Contains(models, m) {
					models = append(models, m)
				}
			}
		}
		rows = append(rows, PeriodRow{Period: k, CacheCreationTokens: a.cc, CacheReadTokens: a.cr,
			InputTokens: a.in, OutputTokens: a.out, ModelBreakdowns: a.breakdowns(), ModelsUsed: modelsOrEmpty(models),
			TotalCost: a.cost, TotalTokens: a.total()})
	}
	return rows, totals(d, es)
}

// TokenCounts is a block's token object.
type TokenCounts struct {
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
}

// BurnRate of an active block.
type BurnRate struct {
	CostPerHour                 float64 `json:"costPerHour"`
	TokensPerMinute             float64 `json:"tokensPerMinute"`
	TokensPerMinuteForIndicator float64 `json:"tokensPerMinuteForIndicator"`
}

// Projection of an active block to its end.
type Projection struct {
	RemainingMinutes int64   `json:"remainingMinutes"`
	TotalCost        float64 `json:"totalCost"`
	TotalTokens      int64   `json:"totalTokens"`
}

// TokenLimitStatus compares the projection with --token-limit.
type TokenLimitStatus struct {
	Limit          int64   `json:"limit"`
	PercentUsed    float64 `json:"percentUsed"`
	ProjectedUsage int64   `json:"projectedUsage"`
	Status         string  `json:"status"`
}

// Block is one 5-hour billing block (or a gap between two), with ccusage's
// field names.
type Block struct {
	ActualEndTime       *string           `json:"actualEndTime"`
	BurnRate            *BurnRate         `json:"burnRate"`
	CostUSD             float64           `json:"costUSD"`
	EndTime             string            `json:"endTime"`
	Entries             int               `json:"entries"`
	ID                  string            `json:"id"`
	IsActive            bool              `json:"isActive"`
	IsGap               bool              `json:"isGap"`
	Models              []string          `json:"models"`
	Projection          *Projection       `json:"projection"`
	StartTime           string            `json:"startTime"`
	TokenCounts         TokenCounts       `json:"tokenCounts"`
	TokenLimitStatus    *TokenLimitStatus `json:"tokenLimitStatus,omitempty"`
	TotalTokens         int64             `json:"totalTokens"`
	UsageLimitResetTime *string           `json:"usageLimitResetTime,omitempty"`

	start, end, actualEnd int64 // unix ms
	firstEntry            int64
}

// BlocksReport is `usage blocks --json`.
type BlocksReport struct {
	Blocks []Block `json:"blocks"`
}

// BlockOptions for Blocks.
type BlockOptions struct {
	Length     time.Duration // 0 = 5h
	Now        time.Time     // zero = time.Now()
	TokenLimit int64         // 0 = none
	LimitMax   bool          // --token-limit max
	Active     bool          // only the active block
	Recent     bool          // blocks started in the last 3 days, or active
}

const hourMs = 3_600_000

// BlockAgg is a block's figures that do not depend on the clock: what the
// snapshot cache keeps so `usage blocks --active` answers without reading
// the entries again.
type BlockAgg struct {
	Start, End, ActualEnd, First int64 // unix ms; ActualEnd/First = last/first entry
	Gap                          bool
	Entries                      int
	In, Out, CacheCreate, Read   int64
	Cost                         float64
	Models                       []string
	Reset                        int64 // unix s, 0 = none
}

// BuildBlocks groups entries (in time order) into blocks of length D
// (claude-code-hooks.md §5.4), sorted by start.
func BuildBlocks(d *Data, es []*Entry, length time.Duration) []BlockAgg {
	if length <= 0 {
		length = 5 * time.Hour
	}
	return sortBlocks(buildBlocksGen(d, es, length.Milliseconds(), nil))
}

// sortBlocks orders blocks in generation order by start (stable: a gap
// block can come after the block that follows it).
func sortBlocks(blocks []BlockAgg) []BlockAgg {
	sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].Start < blocks[j].Start })
	return blocks
}

// buildBlocksGen appends to blocks the blocks of es (in time order) in the
// order they are made: a gap block right before the block after it, so
// blocks of a prefix of the entries, less the last one, are a prefix of
// the blocks of all of them.
func buildBlocksGen(d *Data, es []*Entry, D int64, blocks []BlockAgg) []BlockAgg {
	var cur *agg
	var curStart, reset int64
	closeBlock := func() {
		if cur == nil {
			return
		}
		blocks = append(blocks, BlockAgg{Start: curStart, End: curStart + D, ActualEnd: cur.last, First: cur.first,
			Entries: cur.n, In: cur.in, Out: cur.out, CacheCreate: cur.cc, Read: cur.cr, Cost: cur.cost,
			Models: modelsOrEmpty(cur.models), Reset: reset})
	}
	var prevTS int64
	for _, e := range es {
		if cur == nil {
			curStart = floorHour(e.TS)
			cur = &agg{}
		} else if e.TS-curStart > D || e.TS-prevTS > D {
			closeBlock()
			if e.TS-prevTS > D {
				blocks = append(blocks, BlockAgg{Start: prevTS + D, End: e.TS, Gap: true, Models: []string{}})
			}
			curStart = floorHour(e.TS)
			cur = &agg{}
			reset = 0
		}
		cur.add(d, e)
		if e.Reset > 0 && reset == 0 {
			reset = e.Reset
		}
		prevTS = e.TS
	}
	closeBlock()
	return blocks
}

// Blocks builds the 5-hour blocks report.
func Blocks(d *Data, es []*Entry, opt BlockOptions) BlocksReport {
	return FinishBlocks(BuildBlocks(d, es, opt.Length), opt)
}

// FinishBlocks adds what depends on the clock and the options: active
// flags, burn rate, projection, token-limit status, --active/--recent.
func FinishBlocks(aggs []BlockAgg, opt BlockOptions) BlocksReport {
	length := opt.Length
	if length <= 0 {
		length = 5 * time.Hour
	}
	D := length.Milliseconds()
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	nowMs := now.UnixMilli()
	blocks := make([]Block, 0, len(aggs))
	for i := range aggs {
		if aggs[i].Gap {
			blocks = append(blocks, gapBlock(aggs[i].Start, aggs[i].End))
		} else {
			blocks = append(blocks, makeBlock(&aggs[i], D, nowMs))
		}
	}
	if opt.TokenLimit > 0 || opt.LimitMax {
		limit := opt.TokenLimit
		if opt.LimitMax {
			limit = 0
			for _, b := range blocks {
				if !b.IsGap && !b.IsActive && b.TotalTokens > limit {
					limit = b.TotalTokens
				}
			}
		}
		if limit > 0 {
			for i := range blocks {
				b := &blocks[i]
				if !b.IsActive || b.IsGap {
					continue
				}
				proj := b.TotalTokens
				if b.Projection != nil {
					proj = b.Projection.TotalTokens
				}
				st := "ok"
				if float64(proj) > float64(limit) {
					st = "exceeds"
				} else if float64(proj) > 0.8*float64(limit) {
					st = "warning"
				}
				b.TokenLimitStatus = &TokenLimitStatus{Limit: limit, ProjectedUsage: proj,
					PercentUsed: float64(proj) / float64(limit) * 100, Status: st}
			}
		}
	}
	if opt.Active || opt.Recent {
		cut := nowMs - 3*24*hourMs
		kept := blocks[:0]
		for _, b := range blocks {
			if b.IsActive || (opt.Recent && !opt.Active && b.start >= cut) {
				kept = append(kept, b)
			}
		}
		blocks = kept
	}
	return BlocksReport{Blocks: blocks}
}

func floorHour(ms int64) int64 { return ms - ((ms%hourMs)+hourMs)%hourMs }

func gapBlock(start, end int64) Block {
	s := ISO(start)
	return Block{ID: "gap-" + s, StartTime: s, EndTime: ISO(end), IsGap: true, Models: []string{}, start: start, end: end}
}

func makeBlock(a *BlockAgg, D, now int64) Block {
	start, end := a.Start, a.End
	actual := ISO(a.ActualEnd)
	total := a.In + a.Out + a.CacheCreate + a.Read
	b := Block{
		ID: ISO(start), StartTime: ISO(start), EndTime: ISO(end), ActualEndTime: &actual,
		Entries: a.Entries, CostUSD: a.Cost, Models: modelsOrEmpty(a.Models),
		TokenCounts: TokenCounts{InputTokens: a.In, OutputTokens: a.Out, CacheCreationInputTokens: a.CacheCreate, CacheReadInputTokens: a.Read},
		TotalTokens: total, start: start, end: end, actualEnd: a.ActualEnd, firstEntry: a.First,
	}
	b.IsActive = now-a.ActualEnd < D && now < end
	if a.Reset > 0 {
		s := ISO(a.Reset * 1000)
		b.UsageLimitResetTime = &s
	}
	if b.IsActive {
		dur := float64(a.ActualEnd-a.First) / 60000
		if dur > 0 {
			br := &BurnRate{
				TokensPerMinute:             float64(total) / dur,
				TokensPerMinuteForIndicator: float64(a.In+a.Out) / dur,
				CostPerHour:                 a.Cost / dur * 60,
			}
			b.BurnRate = br
			rem := int64(math.Round(float64(end-now) / 60000))
			b.Projection = &Projection{
				RemainingMinutes: rem,
				TotalTokens:      int64(math.Round(float64(total) + br.TokensPerMinute*float64(rem))),
				TotalCost:        math.Round((a.Cost+br.CostPerHour/60*float64(rem))*100) / 100,
			}
		}
	}
	return b
}

// PeriodJSON renders a daily, weekly or monthly report with ccusage's field
// names ({"daily":[…],"totals":{…}}, key "date", "week" or "month").
func PeriodJSON(kind string, rows []PeriodRow, t Totals) map[string]any {
	list := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		list = append(list, map[string]any{
			PeriodKey(kind):       r.Period,
			"cacheCreationTokens": r.CacheCreationTokens,
			"cacheReadTokens":     r.CacheReadTokens,
			"inputTokens":         r.InputTokens,
			"modelBreakdowns":     r.ModelBreakdowns,
			"modelsUsed":          r.ModelsUsed,
			"outputTokens":        r.OutputTokens,
			"totalCost":           r.TotalCost,
			"totalTokens":         r.TotalTokens,
		})
	}
	return map[string]any{kind: list, "totals": t}
}
