// Command hub runs Canopy's hub, the API server that hosts every logical
// cluster: `hub start`.
package main
