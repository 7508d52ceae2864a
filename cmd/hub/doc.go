// Command hub runs Canopy's hub, the API server that hosts every logical
// cluster: `hub start`; `hub init`, which creates the identity every
// replica on one database shares before the first starts; `hub kubeconfig`, which moves a kubeconfig
// between logical clusters, creates them and prints their tree;
// `hub synctarget create`, which registers a physical cluster; and
// `hub placement explain`, which shows where an object would be placed,
// and why, without creating it. Run as
// kubectl-lc, it is that command as the kubectl plugin `kubectl lc`.
package main
