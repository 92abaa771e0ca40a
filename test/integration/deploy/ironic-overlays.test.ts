import { afterAll, describe, expect, it } from '@jest/globals';
import { renderKustomization, type Manifest } from '../../../hack/stack/kustomize.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { ensureNamespace } from '../../support/namespaces.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { dryRunApply, isCertManagerObject } from './dry-run.ts';

interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: { name: string; value?: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  envFrom?: { configMapRef: { name: string } }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext?: { allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[]; add?: string[] } };
}
interface Probe { httpGet?: { path: string; port: number; scheme?: string } }
interface Volume { name: string; secret?: { secretName: string; optional?: boolean; items?: { key: string; path: string }[] } }
interface Deployment extends Manifest {
  spec: { strategy?: { type: string }; replicas: number; template: { metadata: { labels: Record<string, string> }; spec: {
    hostNetwork?: boolean; securityContext?: { runAsNonRoot?: boolean }; initContainers?: Container[]; containers: Container[]; volumes: Volume[] } } };
}
interface ConfigMap extends Manifest { data: Record<string, string> }
interface Service extends Manifest { spec: { selector: Record<string, string>; ports: { name: string; port: number; targetPort: string }[] } }
interface Issuer extends Manifest { spec: { selfSigned?: object; ca?: { secretName: string } } }
interface Certificate extends Manifest {
  spec: { isCA?: boolean; secretName: string; dnsNames?: string[]; ipAddresses?: string[]; issuerRef: { kind: string; name: string } };
}

const NAMESPACE = 'baremetal-operator-system';
const deploymentNamed = (objects: Manifest[], name: string) => objects.find((object) => object.kind === 'Deployment' && object.metadata.name === name) as Deployment;
const operatorOf = (objects: Manifest[]) => deploymentNamed(objects, 'baremetal-operator-controller-manager');
/** The ConfigMap a container takes its environment from. */
const configMapOf = (objects: Manifest[], container: Container | undefined) => {
  const names = (container?.envFrom ?? []).map((source) => source.configMapRef.name);
  expect(names).toHaveLength(1);
  return objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === names[0]) as ConfigMap;
};

/** The operator's Ironic overlays: rendered, accepted by the real API server, and wired as BMO lays them out. */
describe('Ironic overlays of deploy/operator', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  afterAll(() => kubectl.dispose());

  it.each(['deploy/operator/basic-auth-tls', 'deploy/operator/with-ironic', 'deploy/operator/with-ironic-tls'])('%s renders and passes kubectl apply --dry-run=server', async (directory) => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory });
    await ensureNamespace(kubectl, NAMESPACE);
    // cert-manager's objects (with-ironic-tls) are checked by structure below: their CRDs are not on the test API server.
    const checkable = objects.filter((object) => !isCertManagerObject(object));
    expect(await dryRunApply(kubectl, checkable)).toHaveLength(checkable.length);
    const clusterScoped = ['CustomResourceDefinition', 'Namespace', 'ValidatingWebhookConfiguration', 'ClusterRole', 'ClusterRoleBinding'];
    for (const object of objects.filter((o) => !clusterScoped.includes(o.kind))) expect(object.metadata.namespace).toBe(NAMESPACE);
  });

  it('basic-auth-tls: an https endpoint, the CA from the ironic-cacert Secret at IRONIC_CACERT_FILE, the credentials required', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/basic-auth-tls' });
    const operator = operatorOf(objects);
    const [manager] = operator.spec.template.spec.containers;
    expect(configMapOf(objects, manager).data.IRONIC_ENDPOINT).toMatch(/^https:\/\//);
    // BMO's tls component: Secret ironic-cacert, key tls.crt, under /opt/metal3/certs/ca; IRONIC_CACERT_FILE names the file.
    const caFile = manager?.env?.find((variable) => variable.name === 'IRONIC_CACERT_FILE')?.value;
    expect(caFile).toBe('/opt/metal3/certs/ca/tls.crt');
    const caMount = manager?.volumeMounts?.find((mount) => caFile?.startsWith(`${mount.mountPath}/`));
    expect(caMount).toMatchObject({ readOnly: true });
    const caVolume = operator.spec.template.spec.volumes.find((volume) => volume.name === caMount?.name);
    expect(caVolume?.secret).toMatchObject({ secretName: 'ironic-cacert', items: [{ key: 'tls.crt', path: caFile?.split('/').at(-1) }] });
    // http_basic: BMO's ironic-credentials at $METAL3_AUTH_ROOT_DIR/ironic, no longer optional.
    expect(manager?.volumeMounts).toContainEqual({ name: 'ironic-credentials', mountPath: '/opt/metal3/auth/ironic', readOnly: true });
    expect(operator.spec.template.spec.volumes.find((volume) => volume.name === 'ironic-credentials')?.secret).toEqual({ secretName: 'ironic-credentials', optional: false });
    // The default install is untouched: there the credentials stay optional and no CA is mounted.
    const plain = operatorOf(await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/default' }));
    expect(plain.spec.template.spec.volumes.find((volume) => volume.name === 'ironic-credentials')?.secret?.optional).toBe(true);
    expect(plain.spec.template.spec.containers[0]?.env?.map((variable) => variable.name)).not.toContain('IRONIC_CACERT_FILE');
  });

  it('with-ironic: Metal3\'s ironic image on the host network behind a Service the operator\'s IRONIC_ENDPOINT names', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/with-ironic' });
    const ironic = deploymentNamed(objects, 'baremetal-operator-ironic');
    const pod = ironic.spec.template.spec;
    // One Ironic at a time (its database is local): never two pods during a rollout.
    expect(ironic.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    const byName = Object.fromEntries(pod.containers.map((container) => [container.name, container]));
    expect(Object.keys(byName).sort()).toEqual(['ironic', 'ironic-dnsmasq', 'ironic-httpd']);
    for (const container of pod.containers) expect(container.image).toMatch(/^quay\.io\/metal3-io\/ironic:release-\d+\.\d+$/);
    expect(byName.ironic?.command).toEqual(['/bin/runironic']);
    expect(byName['ironic-httpd']?.command).toEqual(['/bin/runhttpd']);
    expect(byName['ironic-dnsmasq']?.command).toEqual(['/bin/rundnsmasq']);
    expect(pod.initContainers?.map((container) => container.image)).toEqual([expect.stringMatching(/^quay\.io\/metal3-io\/ironic-ipa-downloader:/)]);
    // Only dnsmasq gets network capabilities; the others drop everything and cannot escalate.
    for (const name of ['ironic', 'ironic-httpd']) expect(byName[name]?.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(byName['ironic-dnsmasq']?.securityContext?.capabilities?.add?.sort()).toEqual(['NET_ADMIN', 'NET_BIND_SERVICE', 'NET_RAW']);
    // Every container reads the same ironic-bmo-configmap with the provisioning network.
    const ironicConfig = configMapOf(objects, byName.ironic);
    for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) expect(configMapOf(objects, container)).toBe(ironicConfig);
    expect(Object.keys(ironicConfig.data)).toEqual(expect.arrayContaining(['PROVISIONING_INTERFACE', 'PROVISIONING_IP', 'DHCP_RANGE', 'HTTP_PORT']));
    // http_basic when ironic-htpasswd exists (BMO's ironic basic-auth layout).
    expect(byName.ironic?.volumeMounts).toContainEqual({ name: 'ironic-htpasswd', mountPath: '/auth/ironic', readOnly: true });
    expect(pod.volumes.find((volume) => volume.name === 'ironic-htpasswd')?.secret).toEqual({ secretName: 'ironic-htpasswd', optional: true });
    // The operator reaches the API through the Service; the hosts fetch IPA from PROVISIONING_IP.
    const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === 'baremetal-operator-ironic') as Service;
    expect(Object.entries(service.spec.selector).every(([key, value]) => ironic.spec.template.metadata.labels[key] === value)).toBe(true);
    const operatorConfig = configMapOf(objects, operatorOf(objects).spec.template.spec.containers[0]);
    const endpoint = new URL(operatorConfig.data.IRONIC_ENDPOINT as string);
    expect(endpoint.hostname).toBe(`${service.metadata.name}.${NAMESPACE}.svc`);
    expect(service.spec.ports).toContainEqual({ name: 'api', port: Number(endpoint.port), targetPort: 'api', protocol: 'TCP' });
    for (const key of ['DEPLOY_KERNEL_URL', 'DEPLOY_RAMDISK_URL']) {
      expect(new URL(operatorConfig.data[key] as string).host).toBe(`${ironicConfig.data.PROVISIONING_IP}:${ironicConfig.data.HTTP_PORT}`);
    }
  });

  it('with-ironic-tls: cert-manager\'s CA and serving certificate (structure), Ironic serving TLS behind httpd, the operator on https trusting that CA', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/with-ironic-tls' });
    const named = <T extends Manifest>(kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name) as T | undefined;
    const issuerOf = (certificate: Certificate) => named<Issuer>(certificate.spec.issuerRef.kind, certificate.spec.issuerRef.name);
    const certificates = objects.filter((object): object is Certificate => object.kind === 'Certificate');
    // BMO's chain: a self-signed Issuer signs the CA, whose Secret backs the CA Issuer that signs Ironic's certificate.
    const [ca, serving] = [certificates.find((certificate) => certificate.spec.isCA), certificates.find((certificate) => !certificate.spec.isCA)];
    expect(ca?.spec.secretName).toBe('ironic-cacert');
    expect(issuerOf(ca as Certificate)?.spec).toEqual({ selfSigned: {} });
    expect(issuerOf(serving as Certificate)?.spec).toEqual({ ca: { secretName: ca?.spec.secretName } });
    for (const object of objects.filter(isCertManagerObject)) expect(object.metadata.namespace).toBe(NAMESPACE);

    const ironic = deploymentNamed(objects, 'baremetal-operator-ironic');
    const pod = ironic.spec.template.spec;
    const byName = Object.fromEntries(pod.containers.map((container) => [container.name, container]));
    const secretAt = (container: Container | undefined, mountPath: string) => {
      const mount = container?.volumeMounts?.find((candidate) => candidate.mountPath === mountPath);
      return pod.volumes.find((volume) => volume.name === mount?.name)?.secret;
    };
    // Metal3's ironic image: httpd terminates TLS with /certs/ironic/tls.{crt,key} and proxies to Ironic.
    expect(secretAt(byName['ironic-httpd'], '/certs/ironic')).toEqual({ secretName: serving?.spec.secretName });
    for (const name of ['ironic', 'ironic-httpd']) {
      expect(byName[name]?.env).toContainEqual({ name: 'IRONIC_REVERSE_PROXY_SETUP', value: 'true' });
      expect(secretAt(byName[name], '/certs/ca/ironic')).toEqual({ secretName: ca?.spec.secretName, items: [{ key: 'tls.crt', path: 'tls.crt' }] });
    }
    // http_basic moves to the proxy with TLS (BMO's basic-auth_tls): httpd reads ironic-htpasswd too.
    expect(secretAt(byName['ironic-httpd'], '/auth/ironic')).toEqual({ secretName: 'ironic-htpasswd', optional: true });

    // The operator calls the Service over https, a name the certificate holds, and trusts the CA's tls.crt.
    const operator = operatorOf(objects);
    const [manager] = operator.spec.template.spec.containers;
    const endpoint = new URL(configMapOf(objects, manager).data.IRONIC_ENDPOINT as string);
    expect(endpoint.protocol).toBe('https:');
    expect(serving?.spec.dnsNames).toContain(endpoint.hostname);
    const service = named<Service>('Service', 'baremetal-operator-ironic');
    expect(service?.spec.ports).toContainEqual({ name: 'api', port: Number(endpoint.port), targetPort: 'api', protocol: 'TCP' });
    for (const probe of [byName['ironic-httpd']?.readinessProbe, byName['ironic-httpd']?.livenessProbe]) {
      expect(probe?.httpGet).toMatchObject({ port: Number(endpoint.port), scheme: 'HTTPS' });
    }
    const caFile = manager?.env?.find((variable) => variable.name === 'IRONIC_CACERT_FILE')?.value;
    const caMount = manager?.volumeMounts?.find((mount) => caFile?.startsWith(`${mount.mountPath}/`));
    const caVolume = operator.spec.template.spec.volumes.find((volume) => volume.name === caMount?.name);
    expect(caVolume?.secret).toMatchObject({ secretName: ca?.spec.secretName, items: [{ key: 'tls.crt', path: caFile?.split('/').at(-1) }] });
    // The hosts' agents reach Ironic on PROVISIONING_IP: the certificate holds that address too.
    expect(serving?.spec.ipAddresses).toEqual([configMapOf(objects, byName.ironic).data.PROVISIONING_IP]);

    // Without the component Ironic stays plain HTTP.
    const plain = deploymentNamed(await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/with-ironic' }), 'baremetal-operator-ironic');
    expect(plain.spec.template.spec.containers.flatMap((container) => container.env ?? []).map((variable) => variable.name)).not.toContain('IRONIC_REVERSE_PROXY_SETUP');
  });
});
