package usage

// rawEntry is what one counted transcript line contributes, before
// duplicates are resolved.
type rawEntry struct {
	TS        int64  // unix milliseconds
	MsgID     []byte // message.id (nil = none: never deduplicated); points into the line
	ReqID     []byte // requestId (nil = absent)
	SessID    []byte // sessionId field
	Model     []byte // message.model, nil when absent
	In, Out   int64
	Cache5m   int64 // cache writes priced at the 5-minute rate (incl. plain cache_creation_input_tokens)
	Cache1h   int64
	CacheRead int64
	CostUSD   float64
	Reset     int64 // usage-limit reset, unix seconds, 0 = none
	HasCost   bool
	Sidechain bool
	HasSpeed  bool
	Fast      bool
}

var usageMarker = []byte(`"usage":{`)

// nullFields: ccusage drops a line where any of these appears as
// "<field>":null anywhere in it.
var nullFields = [...]string{"id", "cwd", "model", "speed", "costUSD", "version", "sessionId",
	"requestId", "isApiErrorMessage", "cache_read_input_tokens", "cache_creation_input_tokens"}

var nullSuffix = []byte(`":null`)

var limitMarker = []byte("Claude AI usage limit reached|")

func leadingDigits(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return b[:i]
}

// semverLike: starts with N.N.N.
func semverLike(s []byte) bool {
	parts := 0
	i := 0
	for parts < 3 {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return false
		}
		parts++
		i = j
		if parts < 3 {
			if i >= len(s) || s[i] != '.' {
				return false
			}
			i++
		}
	}
	return true
}

// parseTimestamp accepts YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM), the forms
// ccusage accepts, and returns unix milliseconds.
func parseTimestamp(s []byte) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[0:4])
	mo, ok2 := num(s[5:7])
	d, ok3 := num(s[8:10])
	h, ok4 := num(s[11:13])
	mi, ok5 := num(s[14:16])
	se, ok6 := num(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || se > 59 {
		return 0, false
	}
	rest := s[19:]
	ms := 0
	if len(rest) > 0 && rest[0] == '.' {
		if len(rest) < 4 {
			return 0, false
		}
		v, ok := num(rest[1:4])
		if !ok {
			return 0, false
		}
		ms = v
		rest = rest[4:]
	}
	off := 0
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(rest[1:3])
		om, ok2 := num(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false
		}
		off = (oh*60 + om) * 60
		if rest[0] == '-' {
			off = -off
		}
	default:
		return 0, false
	}
	days := daysFromCivil(y, mo, d)
	secs := days*86400 + int64(h*3600+mi*60+se) - int64(off)
	return secs*1000 + int64(ms), true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil: days since 1970-01-01 (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
