package placement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// Decision is where one object goes.
type Decision struct {
	// Targets are every candidate target: those Selected, with Objects 1
	// and, for an object with replicas, its share of them in Replicas;
	// and why each other one is not.
	Targets []placementv1alpha1.TargetStatus
	// Message says why the object goes nowhere, or to fewer targets or
	// with fewer replicas than asked; empty when it goes where asked.
	Message string
	// RecheckAt is when the decision may change by the passing of time
	// alone, as a grace period or a toleration ends; zero if it cannot.
	RecheckAt time.Time
}

// Selected are the targets the object goes to.
func (d Decision) Selected() []placementv1alpha1.TargetStatus {
	var out []placementv1alpha1.TargetStatus
	for _, t := range d.Targets {
		if t.Reason == placementv1alpha1.ReasonSelected {
			out = append(out, t)
		}
	}
	return out
}

// candidate is a target for one object.
type candidate struct {
	*verdict
	status placementv1alpha1.TargetStatus
	// current is whether the object is on the target now, with share of
	// its replicas.
	current bool
	share   int32
	// cap is how many replicas, or whole objects, the target can hold.
	cap int32
	// score ranks the target for the object: higher is chosen first.
	score uint64
}

func (c *candidate) set(reason placementv1alpha1.TargetReason, message string) {
	c.status.Reason, c.status.Message = reason, message
}

func (c *candidate) selectWith(replicas *int32) {
	c.set(placementv1alpha1.ReasonSelected, "")
	c.status.Objects = 1
	if replicas != nil {
		c.status.Replicas = *replicas
	}
}

// before orders candidates for an object: those it is on first, so that
// it stays where it is, then by score, then by key.
func before(a, b *candidate) int {
	if a.current != b.current {
		if a.current {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.target.Key, b.target.Key))
}

// Decide decides where object o goes: to which targets, with which share
// of its replicas, and why not to each other target. The same inputs
// always give the same decision.
func (e *Evaluation) Decide(o Object) Decision {
	objectHash := hashString(string(o.Cluster) + "|" + o.Resource.String() + "|" + o.Namespace + "/" + o.Name)
	cands := make([]candidate, len(e.targets))
	first := -1
	for i := range e.targets {
		c := &cands[i]
		v := &e.targets[i]
		c.verdict = v
		c.status = v.status("", "")
		c.share, c.current = o.Current[v.target.Key]
		c.score = score(objectHash, v.hash)
		if e.admit(c, o) && (first < 0 || c.group < first) {
			first = c.group
		}
	}
	if first < 0 {
		d := e.decision(cands)
		d.Message = noneEligible(d.Targets)
		return d
	}
	// An object stays in the preference group it is in while any of its
	// targets there stays eligible.
	group, stays := first, false
	for i := range cands {
		if c := &cands[i]; c.status.Reason == "" && c.current && (!stays || c.group < group) {
			group, stays = c.group, true
		}
	}
	var pool []*candidate
	var notPreferred string
	for i := range cands {
		c := &cands[i]
		switch {
		case c.status.Reason != "":
		case c.group != group:
			if notPreferred == "" {
				notPreferred = e.notPreferred(group)
				if stays {
					notPreferred = fmt.Sprintf("the object stays in preference group %s, where it is", e.policy.groups[group].name)
				}
			}
			c.set(placementv1alpha1.ReasonNotPreferred, notPreferred)
		default:
			pool = append(pool, c)
		}
	}
	slices.SortFunc(pool, before)
	var message string
	switch e.policy.strategy.Type {
	case placementv1alpha1.StrategyDuplicate:
		for _, c := range pool {
			c.selectWith(o.Replicas)
		}
	case placementv1alpha1.StrategySpread:
		message = e.spread(pool, o)
	case placementv1alpha1.StrategyDivide:
		message = e.divide(pool, o)
	default:
		e.stick(pool, o)
	}
	d := e.decision(cands)
	d.Message = message
	return d
}

// admit sets why object o may not be on candidate c, and says whether
// it may.
func (e *Evaluation) admit(c *candidate, o Object) bool {
	switch {
	case c.excluded != "":
		c.set(c.excluded, c.message)
		return false
	case c.held != "" && !c.current:
		c.set(c.held, c.message)
		return false
	case !c.target.accepts(o.Resource):
		c.set(placementv1alpha1.ReasonResourceNotAccepted, "its syncer does not sync "+o.Resource.String())
		return false
	}
	var why string
	c.cap, why = replicaCap(c.target, o.Requests)
	need := int32(1)
	if o.Replicas != nil && e.policy.strategy.Type != placementv1alpha1.StrategyDivide {
		need = *o.Replicas
	}
	switch {
	case c.cap == 0 && need > 0:
		c.set(placementv1alpha1.ReasonInsufficientCapacity, why)
		return false
	case c.cap < need:
		c.set(placementv1alpha1.ReasonInsufficientCapacity, fmt.Sprintf("room for %d of the %d replicas", c.cap, need))
		return false
	}
	return true
}

func (e *Evaluation) decision(cands []candidate) Decision {
	d := Decision{Targets: make([]placementv1alpha1.TargetStatus, len(cands)), RecheckAt: e.recheck}
	for i := range cands {
		d.Targets[i] = cands[i].status
	}
	return d
}

// stick puts the object on the first of pool: where it is, if it is on
// one of them.
func (e *Evaluation) stick(pool []*candidate, o Object) {
	chosen := pool[0]
	chosen.selectWith(o.Replicas)
	why := "the object goes to one target, " + chosen.target.Name
	if chosen.current {
		why = "the object stays on " + chosen.target.Name + ", where it is"
	}
	for _, c := range pool[1:] {
		c.set(placementv1alpha1.ReasonNotChosen, why)
	}
}

// spread puts the object on as many of pool as asked, across the
// topology domains, one target at a time, each taken only if the counts
// of any two domains still differ by at most maxSkew after it. Any order
// of such steps ends with as many targets as the skew allows; the
// targets the object is on are taken first, so that it stays where it
// is as far as the skew allows, then those of the domains with the
// fewest taken, so that it spreads evenly.
func (e *Evaluation) spread(pool []*candidate, o Object) string {
	s := e.policy.strategy.Spread
	byDomain := map[string][]*candidate{}
	var domains []string
	for _, c := range pool {
		if _, ok := byDomain[c.domain]; !ok {
			domains = append(domains, c.domain)
		}
		byDomain[c.domain] = append(byDomain[c.domain], c)
	}
	slices.Sort(domains)
	taken := map[string]int{}
	total := 0
	for total < int(s.Targets) {
		fewest := math.MaxInt
		for _, d := range domains {
			fewest = min(fewest, taken[d])
		}
		next := ""
		for _, d := range domains {
			if taken[d] == len(byDomain[d]) || taken[d]+1-fewest > int(s.MaxSkew) {
				continue
			}
			if next == "" || spreadsBefore(byDomain[d][taken[d]], taken[d], byDomain[next][taken[next]], taken[next]) {
				next = d
			}
		}
		if next == "" {
			break
		}
		taken[next]++
		total++
	}
	var chosen []string
	for _, d := range domains {
		for i, c := range byDomain[d] {
			if i < taken[d] {
				c.selectWith(o.Replicas)
				chosen = append(chosen, c.target.Name)
			}
		}
	}
	summary := fmt.Sprintf("spread over %s chose %s", s.TopologyKey, strings.Join(chosen, ", "))
	for _, c := range pool {
		if c.status.Reason == "" {
			c.set(placementv1alpha1.ReasonNotChosen, summary)
		}
	}
	switch {
	case total == int(s.Targets):
		return ""
	case total == len(pool):
		return fmt.Sprintf("only %d of the %d targets asked for are eligible", total, s.Targets)
	}
	return fmt.Sprintf("spreading over %s with maxSkew %d allows %d of the %d targets asked for", s.TopologyKey, s.MaxSkew, total, s.Targets)
}

// spreadsBefore is whether spreading takes candidate a, the next of a
// domain with aTaken taken, before b, the next of one with bTaken: a
// target the object is on first, as far as the skew allows, then the
// domain with fewer taken, then the candidates' order.
func spreadsBefore(a *candidate, aTaken int, b *candidate, bTaken int) bool {
	if a.current != b.current {
		return a.current
	}
	if aTaken != bTaken {
		return aTaken < bTaken
	}
	return before(a, b) < 0
}

// divide divides the object's replicas among pool, in proportion to
// their weights, within what each can hold. A target objects may not go
// to anew, which the object stays on, keeps at most its share. The
// replicas that no target has room for are divided among those that
// were full for want of capacity alone, and said so.
func (e *Evaluation) divide(pool []*candidate, o Object) string {
	if o.Replicas == nil {
		for _, c := range pool {
			c.selectWith(nil)
		}
		return ""
	}
	total := int64(*o.Replicas)
	if total == 0 {
		// The object is kept where it is, or on one target, so that it
		// exists downstream to be scaled.
		for _, c := range pool {
			if c.current || c == pool[0] {
				c.selectWith(o.Replicas)
			}
		}
		e.notChosen(pool, total)
		return ""
	}
	weights := make([]uint64, len(pool))
	caps := make([]int64, len(pool))
	for i, c := range pool {
		weights[i], caps[i] = c.weight, int64(c.cap)
		if c.held != "" {
			caps[i] = min(caps[i], int64(c.share))
		}
	}
	shares, left := apportion(total, weights, caps)
	var message string
	if left > 0 {
		// Weights of the targets that may grow, full for want of
		// capacity: their replicas pend there until it frees up.
		beyond := make([]uint64, len(pool))
		for i, c := range pool {
			if c.held == "" {
				beyond[i] = weights[i]
			}
		}
		if !slices.ContainsFunc(beyond, func(w uint64) bool { return w > 0 }) {
			beyond = weights
		}
		more := largestRemainder(left, beyond)
		for i := range shares {
			shares[i] += more[i]
		}
		message = fmt.Sprintf("the targets have room for %d of the %d replicas; the other %d are divided beyond it", total-left, total, left)
	}
	for i, c := range pool {
		if shares[i] > 0 {
			share := int32(shares[i])
			c.selectWith(&share)
		}
	}
	e.notChosen(pool, total)
	return message
}

// notChosen explains the targets of pool that got no replicas.
func (e *Evaluation) notChosen(pool []*candidate, total int64) {
	zero := fmt.Sprintf("its share of the %d replicas is 0", total)
	for _, c := range pool {
		switch {
		case c.status.Reason != "":
		case c.held != "":
			c.set(c.held, fmt.Sprintf("%s; it keeps none of the %d replicas", c.message, total))
		default:
			c.set(placementv1alpha1.ReasonNotChosen, zero)
		}
	}
}
