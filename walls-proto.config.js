import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
export default [
  { files: ['src/**/*.ts'], languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: { ...importX.flatConfigs.typescript.settings, 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.node.json','tsconfig.web.json'], noWarnOnMultipleProjects: true })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] } },
];
