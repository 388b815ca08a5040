import { describe, expect, it } from 'vitest';
import { decodesAtOnce } from '../../../src-main/core/pipeline/indexing-pipeline';
import { decodeThreads } from '../../../src-main/core/media/clip-decoder';

describe('decodes share the cores', () => {
  const cpu = (id: number) => ({ id, resource: 'cpu' as const });
  const net = (id: number) => ({ id, resource: 'network' as const });

  it('an analysis job counts itself once among the running CPU jobs', () => {
    expect(decodesAtOnce([cpu(1)], cpu(1))).toBe(1);
    expect(decodesAtOnce([cpu(1), cpu(2), cpu(3), net(4)], cpu(2))).toBe(3);
  });

  it("the upload stage's rebuild, on the network lane, adds itself to the CPU jobs", () => {
    expect(decodesAtOnce([net(4)], net(4))).toBe(1);
    expect(decodesAtOnce([cpu(1), net(4), net(5)], net(4))).toBe(2);
  });

  it('threads: a card on 2 cores decodes one thread each, a clip alone on every core', () => {
    expect(decodeThreads(2, decodesAtOnce([cpu(1), cpu(2), cpu(3)], cpu(1)))).toBe(1);
    expect(decodeThreads(2, decodesAtOnce([cpu(1)], cpu(1)))).toBe(2);
    expect(decodeThreads(8, decodesAtOnce([cpu(1), cpu(2)], net(9)))).toBe(2);
  });
});
