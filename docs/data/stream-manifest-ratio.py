import json, sys, statistics as st, re, lzma
def load(p):
    op = lzma.open if p.endswith('.xz') else open
    return json.load(op(p,'rt'))
d = load(sys.argv[1])
times = {}
for b in d['benchmarks']:
    if b.get('run_type') != 'iteration' or b.get('error_occurred') or b.get('skipped'): continue
    n = b.get('run_name', b['name'])
    times.setdefault(n, []).append(b['real_time'])
def key(n):
    fam, op, wg, dom = n.split('/')
    wg = wg[2:].removesuffix('x1'); dom = dom[6:].removesuffix('x1')
    return (op, int(wg), int(dom))
pairs = {}
for n, t in times.items():
    fam = n.split('/')[0]
    pairs.setdefault(key(n), {})[fam] = t
rows = []
print(f"{'op':6} {'wg':>5} {'domain':>10} {'built-in us':>12} {'manifest us':>12} {'ratio':>7}  reps(b/m) spread(b/m)")
ratios = []
for k in sorted(pairs, key=lambda k: (k[2], k[0], k[1])):
    p = pairs[k]
    if 'stream' not in p or 'stream_manifest' not in p: continue
    b, m = st.median(p['stream']), st.median(p['stream_manifest'])
    r = m / b; ratios.append(r)
    sb = (max(p['stream'])-min(p['stream']))/b*100; sm = (max(p['stream_manifest'])-min(p['stream_manifest']))/m*100
    print(f"{k[0]:6} {k[1]:>5} {k[2]:>10} {b:>12.3f} {m:>12.3f} {r:>7.3f}  {len(p['stream'])}/{len(p['stream_manifest'])}  {sb:.1f}%/{sm:.1f}%")
import math
g = math.exp(sum(math.log(r) for r in ratios)/len(ratios))
print(f"points {len(ratios)}  geomean ratio {g:.4f}  min {min(ratios):.3f} max {max(ratios):.3f}")
