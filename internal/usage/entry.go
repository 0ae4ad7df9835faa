package usage

// Entry is what one counted API response adds to a report; fileEntries
// are one file's, as the scanner reads them and the cache keeps them.

// Entry flags.
const (
	flagKey       = 1 << iota // has a dedupe key (message.id present)
	flagSidechain             // isSidechain
	flagSpeed                 // usage.speed present
	flagFast                  // speed == "fast"
	flagCost                  // costUSD given
)

// Entry is one counted API response.
type Entry struct {
	TS        int64 // unix ms
	K0, K1    uint64
	In, Out   int64
	Cache5m   int64
	Cache1h   int64
	CacheRead int64
	CostUSD   float64
	Reset     int64 // usage-limit reset (unix s), 0 = none
	File      int32 // index into Data.Files
	Model     int32 // index into Data.Models, -1 = none
	Flags     uint8
	priced    bool
	seq       int32 // position in the order Load met the entries (small: entries are many)
	cost      float64
}

// CacheCreation is the cache-write token count.
func (e *Entry) CacheCreation() int64 { return e.Cache5m + e.Cache1h }

// Total is every token of the entry.
func (e *Entry) Total() int64 { return e.In + e.Out + e.Cache5m + e.Cache1h + e.CacheRead }

// Cost is the entry's cost in USD.
func (e *Entry) Cost() float64 { return e.cost }

// fileEntries is one file's parsed lines (before duplicates are resolved):
// the cacheable unit.
type fileEntries struct {
	Models  []string
	Entries []Entry // Model indexes Models
}
