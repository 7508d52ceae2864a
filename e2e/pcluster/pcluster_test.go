package pcluster

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// TestThreeClusters starts three physical clusters side by side and runs
// a Deployment on the kwok nodes of each, then checks that stopping them
// leaves none of their processes behind.
func TestThreeClusters(t *testing.T) {
	// Once here rather than three times below when the build fails.
	if _, err := EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		pids = map[string]int{}
	)
	t.Run("group", func(t *testing.T) {
		for i, region := range []string{"eu", "us", "ap"} {
			name := fmt.Sprintf("pc%d", i+1)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				c := Start(t, name, Options{Nodes: []Node{
					{Name: name + "-a", Labels: map[string]string{"region": region, "zone": region + "-a"}},
					{Name: name + "-b", Labels: map[string]string{"region": region, "zone": region + "-b"}},
				}})
				mu.Lock()
				for component, pid := range c.PIDs {
					pids[name+"/"+component] = pid
				}
				mu.Unlock()
				checkCluster(t, c, region)
			})
		}
	})
	// The clusters' cleanups have run when the group returns.
	if len(pids) == 0 {
		t.Fatal("no cluster reported its processes")
	}
	for what, pid := range pids {
		if Alive(pid) {
			t.Errorf("%s (pid %d) still runs after its cluster stopped", what, pid)
		}
	}
}

func checkCluster(t *testing.T, c *Cluster, region string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, component := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok-controller"} {
		if c.PIDs[component] == 0 {
			t.Errorf("no pid for %s among %v", component, c.PIDs)
		}
	}
	for _, n := range c.Nodes {
		if n.Labels["region"] != region || !strings.HasPrefix(n.Labels["zone"], region+"-") {
			t.Errorf("node %s has labels %v, want region %s and a zone in it", n.Name, n.Labels, region)
		}
	}
	info, err := c.Client.Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.GitVersion, "v1.37.") {
		t.Errorf("kube-apiserver reports version %q, want the v1.37 release it was built from", info.GitVersion)
	}

	// Made first, it is still not Ready once the Deployment's pods are.
	pullFails := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pull-fails"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: PullFailingImage}}},
	}
	if _, err := c.Client.CoreV1().Pods("default").Create(ctx, pullFails, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	deployments := c.Client.AppsV1().Deployments("default")
	labels := map[string]string{"app": "web"}
	_, err = deployments.Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "web:1"}}},
			},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = poll(ctx, "3 available replicas", func() (bool, error) {
		d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
		return err == nil && d.Status.AvailableReplicas == 3, err
	})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := c.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]bool{}
	for _, n := range c.Nodes {
		nodes[n.Name] = true
	}
	if len(pods.Items) != 3 {
		t.Errorf("%d pods of the Deployment, want 3", len(pods.Items))
	}
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning || !nodes[p.Spec.NodeName] {
			t.Errorf("pod %s is %s on node %q, want Running on one of the kwok nodes", p.Name, p.Status.Phase, p.Spec.NodeName)
		}
	}

	checkPodLogs(t, ctx, c, pods.Items[0].Name)
	checkPodExec(t, c, pods.Items[0].Name)
	checkPullFails(t, ctx, c, pullFails.Name)

	if err := deployments.Delete(ctx, "web", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil {
		t.Fatal(err)
	}
	err = poll(ctx, "the Deployment's pods to go", func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		return err == nil && len(pods.Items) == 0, err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkPullFails checks that pod, of PullFailingImage, is Pending with
// its container waiting in ImagePullBackOff, and not Ready.
func checkPullFails(t *testing.T, ctx context.Context, c *Cluster, pod string) {
	var p *corev1.Pod
	err := poll(ctx, "pod "+pod+" in ImagePullBackOff", func() (bool, error) {
		var err error
		p, err = c.Client.CoreV1().Pods("default").Get(ctx, pod, metav1.GetOptions{})
		return err == nil && len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].State.Waiting != nil &&
			p.Status.ContainerStatuses[0].State.Waiting.Reason == "ImagePullBackOff", err
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status.Phase != corev1.PodPending {
		t.Errorf("pod %s of %s is %s, want Pending", pod, PullFailingImage, p.Status.Phase)
	}
	for _, cond := range p.Status.Conditions {
		if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
			t.Errorf("pod %s of %s is Ready", pod, PullFailingImage)
		}
	}
}

// checkPodExec runs a command in pod the way kubectl exec does, which
// kwok runs on this machine.
func checkPodExec(t *testing.T, c *Cluster, pod string) {
	k := exec.Command("kubectl", "--kubeconfig", c.Kubeconfig, "exec", pod, "-n", "default", "--", "echo", "exec in "+c.Name)
	// Only the command's output is compared: kubectl may log to stderr
	// about the stream as it closes ("Unknown stream id 1, discarding
	// message") after an exec that went well.
	var stderr strings.Builder
	k.Stderr = &stderr
	out, err := k.Output()
	if err != nil || strings.TrimSpace(string(out)) != "exec in "+c.Name {
		t.Errorf("kubectl exec %s -- echo: %q, %v (stderr %q)", pod, out, err, stderr.String())
	}
}

// checkPodLogs reads what WritePodLog wrote through the pod log API, the
// way kubectl logs does: kube-apiserver to kwok's kubelet endpoint.
func checkPodLogs(t *testing.T, ctx context.Context, c *Cluster, pod string) {
	line := "hello from " + c.Name
	if err := c.WritePodLog("stdout", line); err != nil {
		t.Fatal(err)
	}
	logs, err := c.Client.CoreV1().Pods("default").GetLogs(pod, &corev1.PodLogOptions{}).DoRaw(ctx)
	if err != nil {
		t.Fatalf("logs of pod %s: %v", pod, err)
	}
	if !strings.Contains(string(logs), line) {
		t.Errorf("logs of pod %s are %q, want the line %q", pod, logs, line)
	}
}

// TestMetricsServer runs a cluster with metrics-server and checks that
// `kubectl top pod` reads the usage kwok simulates from the pod's
// annotations, the harness the hub's metrics are compared with. Its
// metrics-server is killed first, as if it had exited on a kube-apiserver
// not yet listening: the cluster serves metrics all the same, from the
// process started again, which stopping the cluster ends.
func TestMetricsServer(t *testing.T) {
	t.Parallel()
	restarted := endsWithCluster(t, "metrics-server")
	c := Start(t, "metrics", Options{Nodes: []Node{{Name: "metrics-a"}}, MetricsServer: true})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	*restarted = killComponent(t, ctx, c, "metrics-server", true, nil)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "busy", Annotations: UsageAnnotations("250m", "64Mi")},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c1", Image: "busy:1"}, {Name: "c2", Image: "busy:1"}}},
	}
	if _, err := c.Client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// metrics-server answers once it has scraped the pod twice, which
	// takes up to two resolutions (15s each).
	out := eventuallyTop(t, ctx, c, "pod", "busy", "-n", "default", "--containers")
	// Memory is the annotation's; CPU is a rate metrics-server computes
	// from kwok's counter between two scrapes, so within a few percent.
	for _, container := range []string{"c1", "c2"} {
		if !hasUsage(out, container, 250, "64Mi") {
			t.Errorf("kubectl top pod --containers said %q, want container %s at about 250m and 64Mi", out, container)
		}
	}
	if out := eventuallyTop(t, ctx, c, "node", "metrics-a"); !strings.HasPrefix(out, "metrics-a ") {
		t.Errorf("kubectl top node said %q, want a line of node metrics-a", out)
	}
}

// TestControllerManagerExited kills a cluster's kube-controller-manager,
// as if it had given up on a kube-apiserver slow to serve, and deletes the
// default service account, which only it makes again. Settling the
// cluster, as Create does, must start it again, so that pods can be made;
// stopping the cluster must end the new process.
func TestControllerManagerExited(t *testing.T) {
	t.Parallel()
	restarted := endsWithCluster(t, "kube-controller-manager")
	c := Start(t, "kcm", Options{Nodes: []Node{{Name: "kcm-a"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	*restarted = killComponent(t, ctx, c, "kube-controller-manager", false, func() {
		if err := c.Client.CoreV1().ServiceAccounts("default").Delete(ctx, "default", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "after"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busy:1"}}},
	}
	if _, err := c.Client.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Errorf("creating a pod once the cluster settled: %v", err)
	}
}

// eventuallyTop runs kubectl top with args against c until it succeeds,
// and returns what it printed.
func eventuallyTop(t *testing.T, ctx context.Context, c *Cluster, args ...string) string {
	var out []byte
	err := poll(ctx, "kubectl top "+strings.Join(args, " ")+" to succeed", func() (bool, error) {
		var err error
		top := append(append([]string{"--kubeconfig", c.Kubeconfig, "top"}, args...), "--no-headers")
		out, err = exec.CommandContext(ctx, "kubectl", top...).CombinedOutput()
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("%v; it last said %q", err, out)
	}
	return string(out)
}

// endsWithCluster returns where a test records the pid of component
// name once started again, and checks that this process does not outlive
// the cluster. Called before Start, its check runs after Start's cleanup
// has stopped the cluster.
func endsWithCluster(t *testing.T, name string) *int {
	pid := new(int)
	t.Cleanup(func() {
		if *pid != 0 && Alive(*pid) {
			t.Errorf("%s started again (pid %d) still runs after its cluster stopped", name, *pid)
		}
	})
	return pid
}

// killComponent kills c's component name, has c settle the way Create
// does, and returns the pid of the component started in its place.
func killComponent(t *testing.T, ctx context.Context, c *Cluster, name string, metrics bool, before func()) int {
	killed := c.PIDs[name]
	if killed == 0 {
		t.Fatalf("no pid for %s among %v", name, c.PIDs)
	}
	if err := syscall.Kill(killed, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := poll(ctx, name+" to exit", func() (bool, error) { return !Alive(killed), nil })
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before()
	}
	bins, err := EnsureBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.settle(ctx, bins, metrics); err != nil {
		t.Fatal(err)
	}
	started := c.PIDs[name]
	if started == killed || !Alive(started) {
		t.Fatalf("%s's pid is %d after %d was killed, want a new, live process", name, started, killed)
	}
	pids, err := readPIDs(clusterDir(c.workdir, c.Name))
	if err != nil || pids[name] != started {
		t.Fatalf("kwokctl's pid files name %s %d (%v), want %d, the pid Stop must end", name, pids[name], err, started)
	}
	return started
}

// hasUsage reports whether kubectl top pod --containers printed a line of
// container using millicores (within 5%) and memory.
func hasUsage(out, container string, millicores int, memory string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[1] != container || f[3] != memory {
			continue
		}
		var cpu int
		if _, err := fmt.Sscanf(f[2], "%dm", &cpu); err == nil && cpu*20 >= millicores*19 && cpu*20 <= millicores*21 {
			return true
		}
	}
	return false
}
