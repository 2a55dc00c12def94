import { ParamReader } from '../../server/http/params.js';

/**
 * Records which parameter names handlers ask for, by wrapping ParamReader's accessors. Requests
 * must run one at a time for the record to belong to one request.
 */
export class ParamSpy {
  readonly names = new Set<string>();
  readonly fileNames = new Set<string>();
  private restore: (() => void)[] = [];

  install(): void {
    const proto = ParamReader.prototype as unknown as Record<string, (this: ParamReader, name: string, ...rest: unknown[]) => unknown>;
    for (const method of ['has', 'str', 'required', 'list', 'int', 'clamped', 'bool', 'file', 'fileList']) {
      const original = proto[method]!;
      const spy = this;
      proto[method] = function (this: ParamReader, name: string, ...rest: unknown[]) {
        (method === 'file' || method === 'fileList' ? spy.fileNames : spy.names).add(name);
        return original.call(this, name, ...rest);
      };
      this.restore.push(() => {
        proto[method] = original;
      });
    }
  }

  uninstall(): void {
    for (const r of this.restore.splice(0)) r();
  }

  clear(): void {
    this.names.clear();
    this.fileNames.clear();
  }
}
