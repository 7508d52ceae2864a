package placement

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/klog/v2"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// Evaluation is a policy's verdict on each candidate target at one time,
// for every object: which targets no object may go to, which only those
// already there may stay on, and the group, domain and weight of the
// others. Deciding for an object adds only what is the object's own.
type Evaluation struct {
	policy  *Policy
	now     time.Time
	targets []verdict
	// recheck is the first time after now at which a verdict changes
	// by the passing of time alone; zero if none does.
	recheck time.Time
}

// verdict is the evaluation of one target.
type verdict struct {
	target *Target
	// excluded is why no object may be on the target, empty if it may.
	excluded placementv1alpha1.TargetReason
	// held is why no new object may go to the target, while objects on
	// it already stay, empty if new ones may go.
	held    placementv1alpha1.TargetReason
	message string
	// group is the index of the first preference group the target is
	// in, 0 when the policy has none.
	group int
	// domain is the target's topology value under a Spread strategy.
	domain string
	// weight is the target's weight under a Divide strategy.
	weight uint64
	// hash orders targets for an object, with the object's own hash.
	hash uint64
}

// Evaluate evaluates the candidate targets, in any order, at time now.
func (p *Policy) Evaluate(targets []Target, now time.Time) *Evaluation {
	e := &Evaluation{policy: p, now: now, targets: make([]verdict, len(targets))}
	for i := range targets {
		e.targets[i] = verdict{target: &targets[i], hash: hashString(targets[i].Key)}
	}
	slices.SortFunc(e.targets, func(a, b verdict) int {
		return cmp.Or(cmp.Compare(a.target.Cluster, b.target.Cluster), cmp.Compare(a.target.Name, b.target.Name))
	})
	for i := range e.targets {
		e.judge(&e.targets[i])
	}
	return e
}

// judge sets v's verdict: the first reason found, from the most lasting
// (what the target is) to the most passing (how it is doing).
func (e *Evaluation) judge(v *verdict) {
	p, t := e.policy, v.target
	lazyVars := t.lazyVars()
	for _, c := range p.constraints {
		if ok, why := c.matches(t, lazyVars); !ok {
			v.exclude(placementv1alpha1.ReasonConstraint, "PlacementConstraint %s does not allow it: %s", c.name, why)
			return
		}
	}
	if ok, why := p.required.matches(t, lazyVars); !ok {
		v.exclude(placementv1alpha1.ReasonLabelMismatch, "%s", why)
		return
	}
	if len(p.groups) > 0 {
		v.group = -1
		for i, g := range p.groups {
			if ok, _ := g.matches(t, lazyVars); ok {
				v.group = i
				break
			}
		}
		if v.group < 0 {
			v.exclude(placementv1alpha1.ReasonLabelMismatch, "in no preference group")
			return
		}
	}
	switch p.strategy.Type {
	case placementv1alpha1.StrategySpread:
		key := p.strategy.Spread.TopologyKey
		domain, ok := t.Labels[key]
		if !ok {
			v.exclude(placementv1alpha1.ReasonLabelMismatch, "no label %s to spread by", key)
			return
		}
		v.domain = domain
	case placementv1alpha1.StrategyDivide:
		w, why := p.weightOf(t)
		if w == 0 {
			reason := placementv1alpha1.ReasonNotChosen
			if p.strategy.Divide.By == placementv1alpha1.DivideByCapacity {
				reason = placementv1alpha1.ReasonInsufficientCapacity
			}
			v.exclude(reason, "%s", why)
			return
		}
		v.weight = w
	}
	if len(p.resources) > 0 && !slices.ContainsFunc(p.resources, t.accepts) {
		v.exclude(placementv1alpha1.ReasonResourceNotAccepted, "syncs none of the placed resources")
		return
	}
	if e.judgeTaints(v) {
		return
	}
	if t.Unschedulable {
		v.hold(placementv1alpha1.ReasonCordoned, "cordoned: objects on it stay, no new one goes")
		return
	}
	e.judgeReadiness(v)
}

// judgeTaints sets v's verdict for the taints it does not tolerate, and
// says whether it did.
func (e *Evaluation) judgeTaints(v *verdict) bool {
	for i := range v.target.Taints {
		taint := &v.target.Taints[i]
		switch taint.Effect {
		case corev1.TaintEffectNoSchedule:
			if !e.tolerated(taint) {
				v.hold(placementv1alpha1.ReasonTaint, "taint %s is not tolerated: objects on it stay, no new one goes", taintString(taint))
				return true
			}
		case corev1.TaintEffectNoExecute:
			until, tolerated := e.toleratedUntil(taint)
			switch {
			case !tolerated:
				v.exclude(placementv1alpha1.ReasonTaint, "taint %s is not tolerated", taintString(taint))
				return true
			case until.IsZero():
			case !e.now.Before(until):
				v.exclude(placementv1alpha1.ReasonTaint, "taint %s was tolerated until %s", taintString(taint), until.UTC().Format(time.RFC3339))
				return true
			default:
				e.recheckAt(until)
				v.hold(placementv1alpha1.ReasonTaint, "taint %s is tolerated for %s more: objects on it stay until then, no new one goes",
					taintString(taint), duration.HumanDuration(until.Sub(e.now)))
				return true
			}
		}
	}
	return false
}

// tolerated is whether a toleration of the policy matches taint.
func (e *Evaluation) tolerated(taint *corev1.Taint) bool {
	return slices.ContainsFunc(e.policy.tolerations, func(t corev1.Toleration) bool {
		return t.ToleratesTaint(klog.Background(), taint, false)
	})
}

// toleratedUntil is whether the policy tolerates NoExecute taint and, if
// only for a time, until when; zero for ever. As for pods, the shortest
// tolerationSeconds of the matching tolerations counts, from when the
// taint was added.
func (e *Evaluation) toleratedUntil(taint *corev1.Taint) (time.Time, bool) {
	var seconds *int64
	tolerated := false
	for _, t := range e.policy.tolerations {
		if !t.ToleratesTaint(klog.Background(), taint, false) {
			continue
		}
		tolerated = true
		if t.TolerationSeconds != nil && (seconds == nil || *t.TolerationSeconds < *seconds) {
			seconds = t.TolerationSeconds
		}
	}
	if !tolerated || seconds == nil {
		return time.Time{}, tolerated
	}
	// The hub stamps when each NoExecute taint was added; one without is
	// taken as added long ago.
	var added time.Time
	if taint.TimeAdded != nil {
		added = taint.TimeAdded.Time
	}
	return added.Add(time.Duration(max(*seconds, 0)) * time.Second), true
}

// judgeReadiness sets v's verdict if its target is not ready: objects
// stay on it through the grace period, or for ever without failover, and
// leave it after.
func (e *Evaluation) judgeReadiness(v *verdict) {
	t := v.target
	if t.Ready {
		return
	}
	p := e.policy
	if t.Evicted {
		v.exclude(placementv1alpha1.ReasonNotReady, "evicted: the hub let go of it as lost")
		return
	}
	notReady := duration.HumanDuration(e.now.Sub(t.NotReadySince))
	if !p.failover {
		v.hold(placementv1alpha1.ReasonNotReady, "not ready for %s; failover is disabled, so objects on it stay", notReady)
		return
	}
	deadline := t.NotReadySince.Add(p.grace)
	if e.now.Before(deadline) {
		e.recheckAt(deadline)
		v.hold(placementv1alpha1.ReasonNotReady, "not ready for %s, within the %s grace period: objects on it stay", notReady, duration.HumanDuration(p.grace))
		return
	}
	v.exclude(placementv1alpha1.ReasonNotReady, "not ready for %s, more than the %s grace period", notReady, duration.HumanDuration(p.grace))
}

func (e *Evaluation) recheckAt(t time.Time) {
	if e.recheck.IsZero() || t.Before(e.recheck) {
		e.recheck = t
	}
}

func (v *verdict) exclude(reason placementv1alpha1.TargetReason, format string, args ...any) {
	v.excluded, v.message = reason, fmt.Sprintf(format, args...)
}

func (v *verdict) hold(reason placementv1alpha1.TargetReason, format string, args ...any) {
	v.held, v.message = reason, fmt.Sprintf(format, args...)
}

func taintString(t *corev1.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// RecheckAt is when the verdicts change by the passing of time alone, as
// a grace period or a toleration ends; zero if they do not.
func (e *Evaluation) RecheckAt() time.Time { return e.recheck }

// firstGroup is the first preference group with a target new objects may
// go to, -1 if there is none.
func (e *Evaluation) firstGroup() int {
	first := -1
	for i := range e.targets {
		v := &e.targets[i]
		if v.excluded == "" && v.held == "" && (first < 0 || v.group < first) {
			first = v.group
		}
	}
	return first
}

// Explain is, for a placement's status, every candidate target with
// whether new objects may go there: Eligible, or why not.
func (e *Evaluation) Explain() []placementv1alpha1.TargetStatus {
	first := e.firstGroup()
	out := make([]placementv1alpha1.TargetStatus, len(e.targets))
	for i := range e.targets {
		v := &e.targets[i]
		out[i] = v.status(cmp.Or(v.excluded, v.held), v.message)
		if out[i].Reason == "" {
			out[i].Reason = placementv1alpha1.ReasonEligible
			if v.group != first {
				out[i].Reason, out[i].Message = placementv1alpha1.ReasonNotPreferred, e.notPreferred(first)
			}
		}
	}
	return out
}

func (e *Evaluation) notPreferred(group int) string {
	return fmt.Sprintf("preference group %s comes first and has eligible targets", e.policy.groups[group].name)
}

// Condition is the Schedulable condition of a placement's status: true
// when some target is eligible for new objects, else false, saying why
// for each target.
func (e *Evaluation) Condition() metav1.Condition {
	c := metav1.Condition{Type: placementv1alpha1.ConditionSchedulable}
	targets := e.Explain()
	var eligible []string
	for _, t := range targets {
		if t.Reason == placementv1alpha1.ReasonEligible {
			eligible = append(eligible, t.Cluster+"/"+t.Name)
		}
	}
	if len(eligible) > 0 {
		c.Status, c.Reason = metav1.ConditionTrue, "EligibleTargets"
		c.Message = fmt.Sprintf("%d eligible: %s", len(eligible), nameList(eligible))
		return c
	}
	c.Status, c.Reason = metav1.ConditionFalse, "NoEligibleTarget"
	c.Message = noneEligible(targets)
	return c
}

// listedNames is how many names a message lists before it counts the
// rest, so that it stays readable with hundreds of targets.
const listedNames = 10

// nameList is names separated by commas, the first listedNames of them.
func nameList(names []string) string {
	if len(names) <= listedNames {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:listedNames], ", "), len(names)-listedNames)
}

// noneEligible says why none of targets is eligible: the targets by
// reason, and one message of each.
func noneEligible(targets []placementv1alpha1.TargetStatus) string {
	if len(targets) == 0 {
		return "no candidate target: no SyncTarget of this logical cluster or its ancestors serves it (see their spec.logicalClusters)"
	}
	byReason := map[placementv1alpha1.TargetReason][]placementv1alpha1.TargetStatus{}
	var reasons []placementv1alpha1.TargetReason
	for _, t := range targets {
		if _, ok := byReason[t.Reason]; !ok {
			reasons = append(reasons, t.Reason)
		}
		byReason[t.Reason] = append(byReason[t.Reason], t)
	}
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		var names []string
		for _, t := range byReason[r] {
			names = append(names, t.Cluster+"/"+t.Name)
		}
		parts[i] = fmt.Sprintf("%s %s (%s)", r, nameList(names), byReason[r][0].Message)
	}
	return "no eligible target: " + strings.Join(parts, "; ")
}

func (v *verdict) status(reason placementv1alpha1.TargetReason, message string) placementv1alpha1.TargetStatus {
	return placementv1alpha1.TargetStatus{
		Cluster: string(v.target.Cluster), Name: v.target.Name, Key: v.target.Key,
		Reason: reason, Message: message,
	}
}
