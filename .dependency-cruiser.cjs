/** Import rules for Desk: imports point down, the domain owns its ports, and nothing goes round in a circle. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules are one; split out what both need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stays-inside',
      severity: 'error',
      comment:
        'The domain calls out only through its ports (domain/ports.ts); adapters, services and doors import it, never the reverse.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(adapters|app|http|cli|screen)/' },
    },
    {
      name: 'adapters-below-doors',
      severity: 'error',
      comment: 'An adapter implements a port; it knows nothing of the doors.',
      from: { path: '^src/adapters/' },
      to: { path: '^src/(http|cli|screen|app)/' },
    },
    {
      name: 'app-below-doors',
      severity: 'error',
      comment: 'Application services are called by the doors, not the other way.',
      from: { path: '^src/app/' },
      to: { path: '^src/(http|cli|screen)/' },
    },
    {
      name: 'store-has-no-rules',
      severity: 'error',
      comment:
        'The store holds SQL only; it may read the fixed sets of domain/vocab.ts but not the layers that use it.',
      from: { path: '^src/store/' },
      to: { path: '^src/(adapters|app|http|cli|screen)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
