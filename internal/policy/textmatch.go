package policy

// textMatcher finds which of a set of words a line holds in one pass over
// the line (an Aho-Corasick automaton, built once per engine with the
// trigger index). The rules' text triggers (Trigger.Text) are some 350
// words; testing each word the line might hold cost about a microsecond
// on an everyday line ("go test ./..." has '.' and '/', the rarest bytes
// of a hundred and fifty of them), where one pass is a table read per
// byte of the line. It finds exactly the words strings.Contains finds.
type textMatcher struct {
	// class is a byte's column in next: 0 for a byte no word holds, which
	// breaks every partial match (its column leads back to the root).
	class [256]int32
	width int32 // columns per state
	// next is the automaton's transitions, state*width+class: the state
	// after reading a byte of that class, failures already followed.
	next []int32
	// out lists, per state, the words (indexes into the words built from)
	// that end at it: its own and those of its proper suffixes.
	out [][]int32
	// emits has a bit per state whose out is not empty: the walk reads
	// this small set at each byte, and out only where a word ends (most
	// bytes of a line end none).
	emits []uint64
}

// emitsAt reports whether a word ends at state st (out[st] is not empty).
func (m *textMatcher) emitsAt(st int32) bool { return m.emits[st>>6]&(1<<(st&63)) != 0 }

// step is the state after reading b in state st (the root is 0); the
// words a line holds are the union of out over the states it passes.
func (m *textMatcher) step(st int32, b byte) int32 { return m.next[st*m.width+m.class[b]] }

// newTextMatcher builds the matcher of words (none empty).
func newTextMatcher(words []string) *textMatcher {
	m := &textMatcher{width: 1}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if m.class[w[i]] == 0 {
				m.class[w[i]] = m.width
				m.width++
			}
		}
	}
	// the trie of words: -1 marks a transition not yet known
	newState := func() int32 {
		s := int32(len(m.out))
		m.out = append(m.out, nil)
		for range m.width {
			m.next = append(m.next, -1)
		}
		return s
	}
	newState() // the root, 0
	for k, w := range words {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			at := s*m.width + m.class[w[i]]
			if m.next[at] < 0 {
				t := newState()
				m.next[at] = t
			}
			s = m.next[at]
		}
		m.out[s] = append(m.out[s], int32(k))
	}
	// breadth first, each state's failure (its longest proper suffix that
	// is a state) is known before its children's: a missing transition
	// is the failure's, and a state ends the words its failure ends
	fail := make([]int32, len(m.out))
	var queue []int32
	for c := int32(0); c < m.width; c++ {
		if t := m.next[c]; t > 0 {
			queue = append(queue, t) // fail[t] is the root
		} else {
			m.next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for c := int32(0); c < m.width; c++ {
			at := s*m.width + c
			t := m.next[at]
			fs := m.next[fail[s]*m.width+c]
			if t < 0 {
				m.next[at] = fs
				continue
			}
			fail[t] = fs
			if len(m.out[fs]) > 0 {
				m.out[t] = append(m.out[t][:len(m.out[t]):len(m.out[t])], m.out[fs]...)
			}
			queue = append(queue, t)
		}
	}
	m.emits = make([]uint64, (len(m.out)+63)/64)
	for st, o := range m.out {
		if len(o) > 0 {
			m.emits[st>>6] |= 1 << (st & 63)
		}
	}
	return m
}
