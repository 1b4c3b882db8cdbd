import { expect, it } from 'vitest';
import { directionMark, directionName } from './direction-mark.js';

it('one mark per direction and origin, with its words', () => {
  expect([directionMark('sent', false), directionMark('received', false)]).toEqual(['↑', '↓']);
  expect([directionMark('sent', true), directionMark('received', true)]).toEqual(['⇡', '⇣']);
  expect(directionName('sent', true)).toBe('sent by wirescope');
  expect(directionName('received', true)).toBe('delivered to the page by wirescope');
  expect(directionName('received', false)).toBe('received');
});
