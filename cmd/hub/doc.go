// Command hub runs Canopy's hub, the API server that hosts every logical
// cluster: `hub start`; and `hub kubeconfig`, which moves a kubeconfig
// between logical clusters, creates them and prints their tree;
// `hub synctarget create`, which registers a physical cluster; and
// `hub placement explain`, which shows where an object would be placed,
// and why, without creating it. Run as
// kubectl-lc, it is that command as the kubectl plugin `kubectl lc`.
package main
