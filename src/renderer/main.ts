import './styles.css';
import { App } from './app';
import { createAgentClient } from './bridge/create-client';

const root = document.getElementById('app');
if (root) new App(root, createAgentClient()).start();
