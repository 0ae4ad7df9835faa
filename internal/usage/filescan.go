package usage

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Reading transcript files: one reusable buffer per worker, a big file
// split into regions read side by side, and only the appended bytes when
// the print of the prefix already read still matches.

// scanner reads files with one reusable buffer.
type scanner struct {
	buf         []byte
	tailEntries int // entries of the last scan that came from an unterminated last line
	// Entries are parsed into these reused slices and copied out at their
	// exact length: appending to a new slice per file grew it by doubling
	// (copies, cleared memory and up to twice the heap a cold run holds).
	ents, splitEnts []Entry
	// The first and the last printSpan bytes of what the last scan from
	// offset 0 parsed (head, tail): the prefix print is made from them
	// instead of reading both ends of the file again.
	head, tail []byte
}

func newScanner() *scanner { return &scanner{buf: make([]byte, 256<<10)} }

// scanJob opens path and parses it from j.from, first checking that the
// bytes before j.from still have the print j.verify (when set); when they
// do not, the file was rewritten and is parsed from the start (reparsed).
// off is the end of the last newline-terminated line (what a later run may
// skip) and print the PrefixPrint of the bytes before it.
func (s *scanner) scanJob(path string, size int64, j job, progress func(int64)) (fe *fileEntries, off int64, print []byte, reparsed bool, err error) {
	f, err := openRaw(path)
	if err != nil {
		return nil, 0, nil, false, err
	}
	defer f.Close()
	from := j.from
	if j.verify != nil {
		p, err := PrefixPrint(f, from)
		if err != nil {
			return nil, 0, nil, false, err
		}
		if !bytes.Equal(p, j.verify) {
			from, reparsed = 0, true
		}
	}
	fe, off, err = s.scanFile(f, from, size, progress)
	if err != nil {
		return nil, 0, nil, false, err
	}
	if j.save || reparsed {
		if from == 0 {
			print = s.print(off)
		} else if print, err = PrefixPrint(f, off); err != nil {
			return nil, 0, nil, false, err
		}
	}
	return fe, off, print, reparsed, nil
}

// PrefixPrint is the fingerprint the cache keeps of a file's first n bytes
// (the part already parsed): a hash of n and of the first and the last 4
// KiB before n (SHA-256, cut to 16 bytes: with the CPU's SHA instructions
// it costs a small part of what a byte-at-a-time hash did on a cold run).
// A file rewritten in place with other content is caught unless both ends
// of its old prefix come back byte for byte.
func PrefixPrint(f io.ReaderAt, n int64) ([]byte, error) {
	var buf [8 + 2*printSpan]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(n))
	head := min(n, printSpan)
	if _, err := f.ReadAt(buf[8:8+head], 0); err != nil {
		return nil, fmt.Errorf("fingerprint: %w", err)
	}
	used := 8 + head
	if n > printSpan {
		tail := min(n-printSpan, printSpan)
		if _, err := f.ReadAt(buf[used:used+tail], n-tail); err != nil {
			return nil, fmt.Errorf("fingerprint: %w", err)
		}
		used += tail
	}
	sum := sha256.Sum256(buf[:used])
	return sum[:16], nil
}

const printSpan = 4096

// print is PrefixPrint of the first n bytes of the file the last scan
// parsed from offset 0, n the offset it returned (the end of what it
// parsed), from the bytes it kept of both ends.
func (s *scanner) print(n int64) []byte {
	var buf [8 + 2*printSpan]byte
	binary.LittleEndian.PutUint64(buf[:8], uint64(n))
	used := 8 + copy(buf[8:], s.head) // min(n, printSpan) bytes
	if n > printSpan {
		t := int(min(n-printSpan, printSpan))
		used += copy(buf[used:], s.tail[len(s.tail)-t:])
	}
	sum := sha256.Sum256(buf[:used])
	return sum[:16]
}

// keepEnds adds region, the next bytes parsed from offset 0, to the ends
// print keeps.
func (s *scanner) keepEnds(region []byte) {
	if k := printSpan - len(s.head); k > 0 {
		s.head = append(s.head, region[:min(k, len(region))]...)
	}
	if len(region) >= printSpan {
		s.tail = append(s.tail[:0], region[len(region)-printSpan:]...)
		return
	}
	if drop := len(s.tail) + len(region) - printSpan; drop > 0 {
		s.tail = s.tail[:copy(s.tail, s.tail[drop:])]
	}
	s.tail = append(s.tail, region...)
}

// scanFile parses f from byte offset from; size is its size when listed
// (it decides whether the parse is split). off is the end of the last
// newline-terminated line (what a later run may skip).
func (s *scanner) scanFile(f *rawFile, from, size int64, progress func(int64)) (*fileEntries, int64, error) {
	f.off = from
	s.head, s.tail = s.head[:0], s.tail[:0]
	fe := &fileEntries{Entries: s.ents[:0]}
	s.tailEntries = 0
	add := lineAdder(fe)
	// A big file is parsed on two cores: the second half of each region
	// on another goroutine (a tree of a few big files would otherwise keep
	// one core idle while the others are done).
	var split *fileEntries
	if size-from > splitFileSize {
		split = &fileEntries{Entries: s.splitEnts[:0]}
	}
	scan := func(region []byte) {
		if from == 0 {
			s.keepEnds(region)
		}
		if split == nil || len(region) < 2*minSplitRegion {
			scanRegion(region, add)
			return
		}
		mid := len(region) / 2
		mid += bytes.IndexByte(region[mid:], '\n') + 1 // region ends with a newline
		split.Models, split.Entries = split.Models[:0], split.Entries[:0]
		var wg sync.WaitGroup
		wg.Go(func() { scanRegion(region[mid:], lineAdder(split)) })
		scanRegion(region[:mid], add)
		wg.Wait()
		appendEntries(fe, split)
	}
	buf := s.buf
	n := 0 // valid bytes in buf
	off := from
	for {
		r, rerr := f.Read(buf[n:])
		n += r
		if r > 0 && progress != nil {
			progress(int64(r))
		}
		if rerr != nil && rerr != io.EOF {
			return nil, 0, rerr
		}
		// At the listed size the read that would return EOF is saved (a
		// system call per file); a file grown since it was listed reads
		// past it to its end.
		eof := rerr == io.EOF || f.off == size
		last := lastNL(buf[:n])
		if last < 0 && !eof {
			if n == len(buf) { // a line longer than the buffer
				nb := make([]byte, 2*len(buf))
				copy(nb, buf[:n])
				buf = nb
				s.buf = buf
			}
			continue
		}
		scan(buf[:last+1])
		off += int64(last + 1)
		rest := copy(buf, buf[last+1:n])
		n = rest
		if eof {
			if n > 0 {
				before := len(fe.Entries)
				add(buf[:n])
				s.tailEntries = len(fe.Entries) - before
			}
			s.ents = fe.Entries[:0]
			if len(fe.Entries) > 0 {
				fe.Entries = slices.Clone(fe.Entries)
			} else {
				fe.Entries = nil
			}
			if split != nil {
				s.splitEnts = split.Entries[:0]
			}
			return fe, off, nil
		}
	}
}

// Files larger than splitFileSize are parsed on two goroutines, regions of
// at least 2*minSplitRegion bytes split in two (a variable for the tests).
var splitFileSize int64 = 8 << 20

const minSplitRegion = 32 << 10

// lineAdder returns the function that parses a line into fe.
func lineAdder(fe *fileEntries) func([]byte) {
	var raw rawEntry
	return func(line []byte) {
		if !parseLine(line, &raw) {
			return
		}
		e := Entry{TS: raw.TS, In: raw.In, Out: raw.Out, Cache5m: raw.Cache5m, Cache1h: raw.Cache1h,
			CacheRead: raw.CacheRead, CostUSD: raw.CostUSD, Reset: raw.Reset, Model: -1}
		if raw.MsgID != nil {
			e.Flags |= flagKey
			second := raw.ReqID
			if second == nil {
				second = raw.SessID
			}
			e.K0, e.K1 = hashKey(raw.MsgID, second, raw.ReqID == nil)
		}
		if raw.Sidechain {
			e.Flags |= flagSidechain
		}
		if raw.HasSpeed {
			e.Flags |= flagSpeed
		}
		if raw.Fast {
			e.Flags |= flagFast
		}
		if raw.HasCost {
			e.Flags |= flagCost
		}
		if raw.Model != nil {
			e.Model = modelIndex(fe, raw.Model)
		}
		fe.Entries = append(fe.Entries, e)
	}
}

// modelIndex is the index of model in fe.Models, added when missing (a
// file has a handful of models: a scan beats a map).
func modelIndex(fe *fileEntries, model []byte) int32 {
	for k, m := range fe.Models {
		if string(model) == m {
			return int32(k)
		}
	}
	fe.Models = append(fe.Models, string(model))
	return int32(len(fe.Models) - 1)
}

// appendEntries appends b's entries to a, models renumbered.
func appendEntries(a, b *fileEntries) {
	remap := make([]int32, len(b.Models))
	for i, m := range b.Models {
		remap[i] = modelIndex(a, []byte(m))
	}
	for _, e := range b.Entries {
		if e.Model >= 0 {
			e.Model = remap[e.Model]
		}
		a.Entries = append(a.Entries, e)
	}
}

func lastNL(b []byte) int { return bytes.LastIndexByte(b, '\n') }

// scanRegion calls add for every complete line of region (which ends with a
// newline). Every line is parsed: the parser itself notices whether a line
// holds the usage marker, in the same pass that reads it.
func scanRegion(region []byte, add func([]byte)) {
	for len(region) > 0 {
		j := bytes.IndexByte(region, '\n')
		if j < 0 {
			add(region)
			return
		}
		add(region[:j])
		region = region[j+1:]
	}
}
