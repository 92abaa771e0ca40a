// Command etcd runs the etcd server that k8s.io/kubernetes pins, so the
// API server and its storage always come from one tested pair of versions.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
