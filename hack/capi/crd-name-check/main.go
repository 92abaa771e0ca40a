// Command crd-name-check applies clusterctl's CRD name preflight check to the CustomResourceDefinitions
// in a components YAML read from stdin: the name must be what contract.CalculateCRDName gives for the
// group and kind (the function clusterctl's installer calls), unless the CRD carries clusterctl's
// skip-crd-name-preflight-check annotation. It prints one line per CRD and exits 1 if any would fail.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clusterctlv1 "sigs.k8s.io/cluster-api/cmd/clusterctl/api/v1alpha3"
	"sigs.k8s.io/cluster-api/util/contract"
)

func main() {
	decoder := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(os.Stdin), 4096)
	failed := false
	for {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := decoder.Decode(&crd); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			fmt.Fprintln(os.Stderr, "reading components:", err)
			os.Exit(2)
		}
		if crd.Kind != "CustomResourceDefinition" {
			continue
		}
		expected := contract.CalculateCRDName(crd.Spec.Group, crd.Spec.Names.Kind)
		_, skipped := crd.Annotations[clusterctlv1.SkipCRDNamePreflightCheckAnnotation]
		switch {
		case crd.Name == expected:
			fmt.Printf("ok %s\n", crd.Name)
		case skipped:
			fmt.Printf("skipped %s (clusterctl expects %s)\n", crd.Name, expected)
		default:
			fmt.Printf("invalid %s (clusterctl expects %s)\n", crd.Name, expected)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}
