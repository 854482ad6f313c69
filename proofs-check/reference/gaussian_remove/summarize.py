# RERUN: /usr/bin/python3 summarize.py [--dir DIR]   (reads DIR/part1.json, part2.json, part3_1.json, part4.json;
#        writes DIR/summary.md)
import json, os, sys, argparse
ap=argparse.ArgumentParser(description='Tables of the four parts\' results, as Markdown.')
ap.add_argument('--dir',default='.',help='directory holding the parts\' JSON; summary.md is written there (default: the current directory)')
D=ap.parse_args().dir
p1=json.load(open(os.path.join(D,'part1.json'))); p2=json.load(open(os.path.join(D,'part2.json'))); p3=json.load(open(os.path.join(D,'part3_1.json'))); p4=json.load(open(os.path.join(D,'part4.json')))
sys.stdout=open(os.path.join(D,'summary.md'),'w')
print('# Part 1 (no dropout, T=1): eps(delta)\n')
print('| n | eps_p | c | delta | truth | lower | upper | up/truth | lo/truth | worst x1 (order) | grid x beats extreme? |')
print('|---|---|---|---|---|---|---|---|---|---|---|')
for r in p1['rows']:
    if r['kind']=='eps':
        print('| %d | %s | %s | %s | %s | %s | %s | %.7f | %.7f | %g (%s) | %s |'%(r['n'],r['eps_p'],r['c'],r['delta'],r['truth'],r['lower'],r['upper'],r['up_over_truth'],r['lo_over_truth'],r['argmax_x'],r['argmax_order'],'yes' if r['grid_beats_extreme'] else 'no'))
print('\n# Part 1: delta(eps) via --at-eps\n')
print('| n | eps_p | c | at_eps | delta_true | lower | upper | up/truth | lo/truth |'); print('|---|---|---|---|---|---|---|---|---|')
for r in p1['rows']:
    if r['kind']=='delta':
        print('| %d | %s | %s | %s | %s | %s | %s | %.6f | %.6f |'%(r['n'],r['eps_p'],r['c'],r['at_eps'],r['truth'],r['lower'],r['upper'],r['up_over_truth'],r['lo_over_truth']))
print('\nnon-monotone findings (x beating the farther extreme at some eps/order):',len(p1['nonmonotone']))
print('\n# Part 2 (no dropout, T rounds)\n')
print('| T | n | eps_p | c | delta | truth | lower | upper | up/truth | lo/truth |'); print('|---|---|---|---|---|---|---|---|---|---|')
for r in p2['rows']:
    print('| %d | %d | %s | %s | %s | %.12g | %s | %s | %.6f | %.6f |'%(r['T'],r['n'],r['eps_p'],r['c'],r['delta'],r['truth'],r['lower'],r['upper'],r['up_over_truth'],r['lo_over_truth']))
print('\n# Part 3 (dropout, m=1, eps_p=1)\n')
print('| p | n | c | delta | (1-p)p^(n-1) | truth B | upper | lower | truth A at named cfg | best A found | named cfg (x1, others, order) |'); print('|---|---|---|---|---|---|---|---|---|---|---|')
for r in p3['rows']:
    print('| %s | %d | %s | %s | %.3g | %s | %s | %s | %.12g | %.12g | %s, %s, %s |'%(r['p'],r['n'],r['c'],r['delta'],r['atom'],r['truthB'],r['upper'],r['lower'],r.get('truthA_named',float('nan')),r['best_asrun'],r.get('named_x1'),r.get('named_others'),r.get('named_order')))
print('\n# Part 4 (dropout, m=2, eps_p=1)\n')
print('| p | n | c | delta | truth B | upper | lower | up/B |'); print('|---|---|---|---|---|---|---|---|')
for r in p4['rows']:
    print('| %s | %d | %s | %s | %.10g | %s | %s | %s |'%(r['p'],r['n'],r['c'],r['delta'],r['truthB'],r['upper'],r['lower'],('%.5f'%r['up_over_truthB']) if r.get('up_over_truthB') else '-'))
print('\nViolations: part1 %d, part2 %d, part3 %d, part4 %d'%(len(p1['violations']),len(p2['violations']),len(p3['violations']),len(p4['violations'])))
