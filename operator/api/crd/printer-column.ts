/** One `kubectl get` column (apiextensions.k8s.io/v1 CustomResourceColumnDefinition). */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  /** 0 shows by default; higher only with `-o wide`. */
  priority?: number;
  format?: string;
}
