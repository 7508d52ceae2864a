// Package admission holds nothing but the rule its subpackages, the
// hub's admission plugins, keep: a plugin reads what it needs from the
// shared informers (pkg/informer), and never imports a controller
// (pkg/controller/...), since controllers sit above the API, admission
// included, and a plugin that needs one's code is reaching back up the
// layers. imports_test.go checks it.
package admission
