package sqlstorage

import (
	"context"
	"strconv"
	"strings"
)

// keyRange selects keys: one exact key, or the keys from a lower bound up
// to, but excluding, an upper bound.
type keyRange struct {
	from string
	// after makes from exclusive. Continue tokens end in "\x00" to mean
	// "just after this key"; PostgreSQL text cannot hold a NUL, so that
	// becomes key > from instead of key >= from+"\x00".
	after bool
	// end is the exclusive upper bound; empty means from is an exact key.
	end string
}

func exactKey(key string) keyRange { return keyRange{from: key} }

// prefixRange selects the keys under prefix, starting at start when it is
// a continuation point inside the prefix.
func prefixRange(prefix, start string) keyRange {
	r := keyRange{from: prefix, end: prefixEnd(prefix)}
	if start != "" {
		r.from = start
		if strings.HasSuffix(start, "\x00") {
			r.from, r.after = strings.TrimSuffix(start, "\x00"), true
		}
	}
	return r
}

// prefixEnd is the smallest key greater than every key starting with prefix.
func prefixEnd(prefix string) string {
	end := []byte(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return string(end[:i+1])
		}
	}
	// Every byte is 0xff: nothing sorts after the prefix's keys but them.
	return ""
}

// where renders the range as a condition on column key, with its
// parameters numbered from n.
func (r keyRange) where(n int) (string, []any) {
	p := func(i int) string { return "$" + strconv.Itoa(n+i) }
	if r.end == "" && !r.after {
		return "key = " + p(0), []any{r.from}
	}
	lower := "key >= "
	if r.after {
		lower = "key > "
	}
	if r.end == "" {
		return lower + p(0), []any{r.from}
	}
	return lower + p(0) + " AND key < " + p(1), []any{r.from, r.end}
}

// listing is what one range read returns.
type listing struct {
	// rev is the revision the read is consistent at; current and compacted
	// are the store's counters seen in the same snapshot.
	rev, current, compacted int64
	kvs                     []listedKV
}

type listedKV struct {
	key    string
	value  []byte
	modRev int64
}

// visibleAt is the condition for the version of a key that is current at
// the revision in parameter p: written at or before it, and not yet
// superseded then.
func visibleAt(p string) string {
	return `rev <= ` + p + ` AND (superseded_rev IS NULL OR superseded_rev > ` + p + `)`
}

// readRange reads at most limit versions of the keys in r, in key order, as
// they were at revision atRev, or now when atRev is 0. It is one statement,
// so the rows and the counters come from one snapshot; that is what makes a
// compacted revision detectable (compact_rev is committed before rows go).
func (b *Backend) readRange(ctx context.Context, r keyRange, atRev int64, limit int) (*listing, error) {
	q, args := b.rangeQuery(r, atRev, limit)
	rows, err := b.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrapDBError(err)
	}
	defer rows.Close()
	l := &listing{}
	for rows.Next() {
		var key *string
		var kv listedKV
		var modRev *int64
		if err := rows.Scan(&l.current, &l.compacted, &key, &kv.value, &modRev); err != nil {
			return nil, wrapDBError(err)
		}
		if key == nil {
			continue
		}
		kv.key, kv.modRev = *key, *modRev
		l.kvs = append(l.kvs, kv)
	}
	if err := rows.Err(); err != nil {
		return nil, wrapDBError(err)
	}
	l.rev = atRev
	if atRev == 0 {
		l.rev = l.current
	}
	return l, nil
}

// rangeQuery is the statement readRange runs.
func (b *Backend) rangeQuery(r keyRange, atRev int64, limit int) (string, []any) {
	cond, keyArgs := r.where(2)
	args := append([]any{limit}, keyArgs...)
	visible := "superseded_rev IS NULL"
	if atRev > 0 {
		args = append(args, atRev)
		visible = visibleAt("$" + strconv.Itoa(len(args)))
	}
	q := `SELECT m.value, c.value, r.key, r.value, r.rev
		FROM canopy_meta m
		JOIN canopy_meta c ON c.name = 'compact_rev'
		LEFT JOIN (SELECT key, value, rev FROM canopy_revisions
			WHERE ` + visible + ` AND ` + cond + ` ORDER BY key LIMIT $1) r ON TRUE
		WHERE m.name = 'rev' ORDER BY r.key`
	return b.d.sql(q), args
}

// countRange counts the keys in r that exist at revision rev.
func (b *Backend) countRange(ctx context.Context, r keyRange, rev int64) (int64, error) {
	cond, args := r.where(2)
	var n int64
	err := b.db.QueryRowContext(ctx, b.d.sql(`SELECT count(*) FROM canopy_revisions WHERE `+visibleAt("$1")+` AND `+cond),
		append([]any{rev}, args...)...).Scan(&n)
	return n, wrapDBError(err)
}

// stats counts the current keys in r and their stored bytes.
func (b *Backend) stats(ctx context.Context, r keyRange) (count, bytes int64, err error) {
	cond, args := r.where(1)
	err = b.db.QueryRowContext(ctx, b.d.sql(`SELECT count(*), COALESCE(SUM(LENGTH(value)), 0) FROM canopy_revisions
		WHERE superseded_rev IS NULL AND `+cond), args...).Scan(&count, &bytes)
	return count, bytes, wrapDBError(err)
}

// current reads the current version of key.
func (b *Backend) current(ctx context.Context, key string) (*kvRecord, error) {
	r, err := currentVersion(ctx, b.db, b.d, key)
	return r, wrapDBError(err)
}
